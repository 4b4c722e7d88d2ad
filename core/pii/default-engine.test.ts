import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../app.ts';
import type { EngineCatalog } from './catalog.ts';
import { defaultPiiEngine, piiCatalog, piiEngineKey } from './default-engine.ts';
import { createFullEngine } from './full-engine.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-pii-catalog-'));
const apps: App[] = [];
afterAll(() => {
  for (const app of apps) app.close();
  rmSync(dir, { recursive: true, force: true });
});

const appWith = (env: NodeJS.ProcessEnv): App => {
  const app = createApp({ dataDir: ':memory:', env });
  apps.push(app);
  return app;
};

/** Every answer a catalog gives: languages, and all / default entity types per language and overall. */
const answers = (catalog: EngineCatalog) => ({
  languages: catalog.languages(),
  all: catalog.entityTypes(),
  perLanguage: Object.fromEntries(
    catalog.languages().map((language) => [language, [catalog.entityTypes(language), catalog.defaultEntityTypes(language)]]),
  ),
});

describe('the PII catalog (what the engine scans for, without building it)', () => {
  it('answers as the full engine does, built-in recognizers and the NER', () => {
    const app = appWith({});
    const catalog = answers(piiCatalog(app));
    expect(catalog).toEqual(answers(createFullEngine(undefined)));
    expect(catalog.all).toEqual(expect.arrayContaining(['PERSON', 'LOCATION', 'NRP', 'EMAIL_ADDRESS', 'PIPL_NATIONAL_ID']));
    // Asking did not build the engine.
    expect(app.services.has(piiEngineKey)).toBe(false);
  });

  it('answers as the full engine does with a custom recognizers file, new language included', () => {
    const file = join(dir, 'custom.json');
    writeFileSync(
      file,
      JSON.stringify({
        recognizers: [
          { name: 'Ticket', supported_entity: 'TICKET_ID', patterns: [{ name: 'ticket', regex: 'TCK-\\d{6}', score: 0.9 }] },
          { name: 'Steuer', supported_entity: 'DE_TAX_REF', supported_language: 'xx', deny_list: ['ABC'] },
        ],
      }),
    );
    const catalog = answers(piiCatalog(appWith({ SVC_PII_RECOGNIZERS_FILE: file })));
    expect(catalog).toEqual(answers(createFullEngine(file)));
    expect(catalog.languages).toContain('xx');
    expect(catalog.perLanguage.en?.[0]).toContain('TICKET_ID');
  });

  it('refuses a broken custom recognizers file as building the engine would', async () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{ not json');
    const app = appWith({ SVC_PII_RECOGNIZERS_FILE: file });
    expect(() => piiCatalog(app)).toThrow(/cannot read custom recognizers file/);
    await expect(defaultPiiEngine(app)).rejects.toThrow(/cannot read custom recognizers file/);
  });

  it('builds the engine once, on first use, and from then on the engine answers', async () => {
    const app = appWith({});
    const [first, second] = await Promise.all([defaultPiiEngine(app), defaultPiiEngine(app)]);
    expect(first).toBe(second);
    expect(piiCatalog(app)).toBe(first);
    expect(first.scan('Mail jane@example.com', { language: 'en' }).entities.map((f) => f.type)).toEqual(['EMAIL_ADDRESS']);
  });
});
