import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { SFCECBuildError, SFCECVerifyError } from '../errors.ts';
import { SFCECClient } from './client.ts';
import { invoke } from '../ops/dispatch.ts';
import { testBackends } from '../test-support/backends.ts';
import { bundleAppPerTest, seedDays, tempApp } from './test-support.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe.each(testBackends)('SFCECClient build and registry on $name', (backend) => {
  const t = bundleAppPerTest(backend, { SVC_AUDIT_BYOS_PROVIDER: 'local' });
  const setup = () => ({ ...t(), client: new SFCECClient({ app: t().app }) });
  it('builds a bundle with the spec name and fields, registers it, and verifies it', async () => {
    const { app, client } = setup();
    await seedDays(app, 'credit:model', ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04']);
    const result = await client.buildBundle('credit:model', ['2026-01-02', '2026-01-03'], ['soc2', 'EU AI Act']);
    expect(result.bundle_id).toMatch(/^cec-[0-9A-Z]{26}$/);
    expect(result.zip_path.endsWith('svc_cec_credit_model_2026-01-02_2026-01-03.zip')).toBe(true);
    expect(result.download_url).toBe(pathToFileURL(result.zip_path).href);
    expect(result.hmac_manifest).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(result.record_counts).toEqual({
      score_records: 2,
      bias_reports: 2,
      prri_records: 2,
      drift_events: 2,
      pii_detections: 2,
      gate_evaluations: 2,
    });
    expect(result.frameworks_covered).toEqual(['soc2', 'eu_ai_act']);
    expect(Date.parse(result.expires_at) - Date.parse(result.generated_at)).toBe(24 * 3600 * 1000);
    expect(await client.getBundle(result.bundle_id)).toEqual(result);
    const check = await client.verifyBundle(result.zip_path);
    expect(check.errors).toEqual([]);
    expect(check).toMatchObject({
      bundle_id: result.bundle_id,
      manifest_valid: true,
      chain_valid: true,
      timestamp_valid: true,
      overall_valid: true,
      timestamp_kind: 'stub',
    });
    expect(readdirSync(join(result.zip_path, '..')).filter((name) => name.includes('partial'))).toEqual([]);
  });

  it('builds an empty bundle for a range with no records and it verifies', async () => {
    const { client } = setup();
    const result = await client.buildBundle('nothing', ['2026-02-01', '2026-02-02']);
    expect(Object.values(result.record_counts).every((count) => count === 0)).toBe(true);
    expect(result.frameworks_covered).toHaveLength(5);
    expect((await client.verifyBundle(result.zip_path)).overall_valid).toBe(true);
  });

  it('status counts bundles, survives a restart, and reports null for local storage (s3: storage/s3.test.ts)', async () => {
    const { app, dir, client } = setup();
    expect(await client.getStatus()).toMatchObject({ byos_provider: null, bundle_count: 0, last_bundle_at: null });
    await seedDays(app, 'p', ['2026-03-01']);
    const built = await client.buildBundle('p', ['2026-03-01', '2026-03-01']);
    const status = await client.getStatus();
    expect(status).toMatchObject({ bundle_count: 1, last_bundle_at: built.generated_at });
    expect(status.frameworks_supported).toEqual(['eu_ai_act', 'iso_42001', 'nist_ai_rmf', 'iso27001', 'soc2']);
    // SQLite: the same file opened again; PostgreSQL: another instance on the same database.
    const reopened =
      backend.name === 'sqlite'
        ? createApp({ dataDir: dir, env: { SVC_SIGNING_KEY: 'test-signing-key-0123456789abcdef' } })
        : await t().second();
    try {
      const again = new SFCECClient({ app: reopened });
      expect(await again.getBundle(built.bundle_id)).toEqual(built);
      expect(await again.getStatus()).toMatchObject({ byos_provider: null, bundle_count: 1, last_bundle_at: built.generated_at });
      expect(await again.getBundle('cec-unknown')).toBeNull();
    } finally {
      if (backend.name === 'sqlite') reopened.close();
    }
  });

  it('reissues the download URL without rebuilding, and refuses unknown ids or a deleted ZIP', async () => {
    let now = new Date('2026-04-01T00:00:00.000Z');
    const { app, client } = setup();
    (app as { now: () => Date }).now = () => now;
    const built = await client.buildBundle('p', ['2026-03-01', '2026-03-01']);
    now = new Date('2026-04-03T10:00:00.000Z');
    const reissued = await client.reissueDownloadUrl(built.bundle_id);
    expect(reissued.expires_at).toBe('2026-04-04T10:00:00.000Z');
    expect({ ...reissued, expires_at: built.expires_at }).toEqual(built);
    await expect(client.reissueDownloadUrl('cec-nope')).rejects.toBeInstanceOf(SFCECBuildError);
    // Another instance reissues the same registry row (the ZIP path is on a volume both see).
    const secondApp = await t().second();
    (secondApp as { now: () => Date }).now = () => now;
    const other = new SFCECClient({ app: secondApp });
    now = new Date('2026-04-05T08:00:00.000Z');
    expect((await other.reissueDownloadUrl(built.bundle_id)).expires_at).toBe('2026-04-06T08:00:00.000Z');
    expect((await client.getBundle(built.bundle_id))?.expires_at).toBe('2026-04-06T08:00:00.000Z');
    rmSync(built.zip_path);
    await expect(client.reissueDownloadUrl(built.bundle_id)).rejects.toBeInstanceOf(SFCECBuildError);
  });

  it('rejects bad input before writing anything', async () => {
    const { client, dir } = setup();
    await expect(client.buildBundle('p', ['2026-03-02', '2026-03-01'])).rejects.toThrow(/from is after to/);
    await expect(client.buildBundle('p', ['2026-02-30', '2026-03-01'])).rejects.toThrow(/YYYY-MM-DD/);
    await expect(client.buildBundle('p', ['2026-03-01', '2026-03-01'], ['gdpr'])).rejects.toThrow(/Unknown framework/);
    expect(existsSync(join(dir, 'bundles'))).toBe(false);
  });

  it('a failed build leaves nothing behind and raises SFCECBuildError', async () => {
    const { app, client } = setup();
    await seedDays(app, 'p', ['2026-03-01']);
    await app.settings.update({ tsaUrl: 'http://127.0.0.1:9/tsa' });
    const outputDir = join(app.dataDir as string, 'out');
    await expect(client.buildBundle('p', ['2026-03-01', '2026-03-01'], undefined, { outputDir })).rejects.toBeInstanceOf(SFCECBuildError);
    expect(readdirSync(outputDir)).toEqual([]);
    expect((await client.getStatus()).bundle_count).toBe(0);
  });

  it('concurrent builds on two instances register every bundle once, with distinct ids, seen by both', async () => {
    const { app } = t();
    const second = await t().second();
    await seedDays(app, 'p', ['2026-03-01']);
    const clients = [new SFCECClient({ app }), new SFCECClient({ app: second })];
    const built = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (clients[i % 2] as SFCECClient).buildBundle('p', ['2026-03-01', '2026-03-01'])),
    );
    expect(new Set(built.map((bundle) => bundle.bundle_id)).size).toBe(6);
    for (const client of clients) expect((await client.getStatus()).bundle_count).toBe(6);
    const listed = await invoke(
      'cec.listBundles',
      { limit: 50 },
      { app: second, actor: { kind: 'local', id: 'test', tier: 'admin', scopes: [] } },
    );
    expect((listed as { total: number; items: { bundle_id: string }[] }).items.map((item) => item.bundle_id).sort()).toEqual(
      built.map((bundle) => bundle.bundle_id).sort(),
    );
  });
});

describe('SFCECClient verify and signing keys', () => {
  const setup = (env: NodeJS.ProcessEnv = {}) => {
    const fixture = tempApp(env);
    cleanups.push(fixture.cleanup);
    return { ...fixture, client: new SFCECClient({ app: fixture.app }) };
  };

  it('verifyBundle raises SFCECVerifyError only for a missing or unreadable file', async () => {
    const { dir, client } = setup();
    await expect(client.verifyBundle(join(dir, 'missing.zip'))).rejects.toBeInstanceOf(SFCECVerifyError);
    await expect(client.verifyBundle(dir)).rejects.toBeInstanceOf(SFCECVerifyError);
  });

  it('an unset signing key becomes a stored per-install key, with a warning that never contains it', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const app = createApp({ dataDir: ':memory:', env: {}, log });
    try {
      const client = new SFCECClient({ app });
      const first = await client.buildBundle('p', ['2026-03-01', '2026-03-01']);
      const key = app.settings.secret('signingKey') as string;
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      expect(lines.join('')).toMatch(/SVC_SIGNING_KEY is unset/);
      expect(lines.join('')).not.toContain(key);
      expect((await client.verifyBundle(first.zip_path)).overall_valid).toBe(true);
      rmSync(first.zip_path);
    } finally {
      app.close();
    }
    const weak = createApp({ dataDir: ':memory:', env: { SVC_SIGNING_KEY: 'changeme' }, log });
    try {
      const built = await new SFCECClient({ app: weak }).buildBundle('p', ['2026-03-02', '2026-03-02']);
      expect(lines.join('')).toMatch(/short or a well-known default/);
      expect(lines.join('')).not.toContain('changeme');
      rmSync(built.zip_path);
    } finally {
      weak.close();
    }
  });
});
