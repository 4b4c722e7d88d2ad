import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type App, createApp } from '../app.ts';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup.splice(0)) step();
});
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-settings-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const open = (dataDir: string, env: NodeJS.ProcessEnv = {}): App => {
  const app = createApp({ dataDir, env });
  cleanup.unshift(() => app.close());
  return app;
};

describe('settings', () => {
  it('persists changes in the data dir and keeps untouched keys', () => {
    const dir = tempDir();
    const first = open(dir);
    first.settings.update({ chatModel: 'llama3' });
    first.settings.update({ piiAction: 'block' });
    first.close();
    cleanup.shift();
    const second = open(dir);
    expect(second.settings.get()).toMatchObject({ chatModel: 'llama3', piiAction: 'block', httpPort: 8765 });
  });

  it('lets environment variables override stored values and reports which', () => {
    const app = open(':memory:', { SVC_PII_ACTION: 'flag', SVC_HTTP_PORT: '9000', SVC_HTTP_ENABLED: 'false' });
    app.settings.update({ piiAction: 'block' });
    expect(app.settings.get()).toMatchObject({ piiAction: 'flag', httpPort: 9000, httpEnabled: false });
    expect(app.settings.view().overriddenByEnv).toEqual(expect.arrayContaining(['piiAction', 'httpPort', 'httpEnabled']));
  });

  it('rejects unknown keys and invalid values, writing nothing', () => {
    const app = open(':memory:');
    expect(() => app.settings.update({ piiAction: 'shout' as 'block' })).toThrow();
    expect(() => app.settings.update({ nope: 1 } as object)).toThrow();
    expect(app.settings.get().piiAction).toBe('redact');
  });

  it('refuses control characters in path settings (a NUL reached the file system and failed with a 500)', () => {
    const app = open(':memory:');
    for (const bad of ['/tmp/out\u0000x', '/tmp/out\nx', '/tmp/out\u0085x']) {
      expect(() => app.settings.update({ bundleOutputDir: bad })).toThrow(/control characters/);
      expect(() => app.settings.update({ tsaCaFile: bad })).toThrow(/control characters/);
    }
    app.settings.update({ bundleOutputDir: '/tmp/bundles ü' });
    expect(app.settings.get()).toMatchObject({ bundleOutputDir: '/tmp/bundles ü', tsaCaFile: '' });
  });

  it('keeps secrets in a 0600 file, never in SQLite, and reports only whether they are set', () => {
    const dir = tempDir();
    const app = open(dir);
    app.settings.setSecret('chatApiKey', 'sk-very-secret');
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(JSON.stringify(app.db.prepare('SELECT * FROM settings').all())).not.toContain('sk-very-secret');
    const view = app.settings.view();
    expect(view.secrets.chatApiKey).toEqual({ set: true, fromEnv: false });
    expect(JSON.stringify(view)).not.toContain('sk-very-secret');
    expect(app.settings.secret('chatApiKey')).toBe('sk-very-secret');
  });

  it('prefers the environment for secrets (PROVIDER_API_KEY, SVC_SIGNING_KEY)', () => {
    const app = open(':memory:', { PROVIDER_API_KEY: 'from-env' });
    app.settings.setSecret('chatApiKey', 'stored');
    expect(app.settings.secret('chatApiKey')).toBe('from-env');
    expect(app.settings.view().secrets.chatApiKey.fromEnv).toBe(true);
  });
});
