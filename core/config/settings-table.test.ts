import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envOnlySettings, secretsEnv, settingsEnv } from './settings-schema.ts';
import { settingsTable, withSettingsTable } from './settings-table.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README configuration table', () => {
  it('is the one generated from the settings schema (run `npm run docs:settings` after changing a setting)', () => {
    expect(withSettingsTable(readme)).toBe(readme);
  });

  it('has one row per declared variable, each with its default and doc', () => {
    const table = settingsTable();
    const names = [...Object.values(settingsEnv), ...Object.values(secretsEnv), ...Object.values(envOnlySettings).map((s) => s.env)];
    for (const name of names) expect(table).toContain(`| \`${name}\` |`);
    expect(table.split('\n').filter((line) => line.startsWith('| `'))).toHaveLength(new Set(names).size);
    expect(table).toContain('| `SVC_HTTP_PORT` | integer | `8765` |');
    expect(table).toContain('| `SVC_PII_ACTION` | `redact`, `block`, `flag` | `redact` |');
  });

  it('every SVC_ variable the code names is declared in the schema', () => {
    const root = new URL('../../', import.meta.url);
    const sources = ['core', 'main', 'bin', 'scripts'].flatMap((dir) =>
      readdirSync(new URL(dir, root), { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.(ts|tsx|js|mjs)$/.test(f))
        .map((f) => new URL(`${dir}/${f}`, root)),
    );
    const used = new Set(sources.flatMap((file) => readFileSync(file, 'utf8').match(/SVC_[A-Z0-9_]+/g) ?? []));
    const declared = new Set([
      ...Object.values(settingsEnv),
      ...Object.values(secretsEnv),
      ...Object.values(envOnlySettings).map((s) => s.env),
    ]);
    expect([...used].filter((name) => !declared.has(name)).sort()).toEqual([]);
  });
});
