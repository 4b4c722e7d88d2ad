import { z } from 'zod';
import { envOnlySettings, secretDocs, secretNames, secretsEnv, settingDefaults, settingsEnv, settingsSchema } from './settings-schema.ts';

/**
 * The README's configuration table, generated from the settings schema (`npm run docs:settings` writes it
 * between the `settings-table` markers; core/config/settings-table.test.ts fails when they differ).
 */
export const tableStart = '<!-- settings-table:start -->';
export const tableEnd = '<!-- settings-table:end -->';

const typeOf = (schema: z.ZodType): string => {
  if (schema instanceof z.ZodEnum) return schema.options.map((o) => `\`${String(o)}\``).join(', ');
  if (schema instanceof z.ZodUnion) return typeOf(schema.options[0] as z.ZodType);
  if (schema instanceof z.ZodString) return schema.format === 'url' ? 'URL' : 'string';
  if (schema instanceof z.ZodNumber) return schema.format?.includes('int') ? 'integer' : 'number';
  return schema.def.type;
};
const shown = (value: unknown): string => (value === '' ? '' : `\`${String(value)}\``);
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

type Row = { readonly name: string; readonly type: string; readonly fallback: string; readonly doc: string };

const rows = (): Row[] => {
  const fromSettings = (Object.entries(settingsEnv) as [keyof typeof settingDefaults, string][]).map(([key, name]) => {
    const schema = settingsSchema.shape[key] as z.ZodType;
    const meta = schema.meta() as { title?: string; description?: string } | undefined;
    const doc = [meta?.title, meta?.description].filter(Boolean).join(': ');
    return { name, type: typeOf(schema), fallback: shown(settingDefaults[key]), doc: `${doc} (Settings screen: \`${key}\`)` };
  });
  const fromEnvOnly = Object.values(envOnlySettings).map((s) => ({
    name: s.env,
    type: typeOf(s.schema),
    fallback: shown(s.default),
    doc: s.doc,
  }));
  const fromSecrets = secretNames.map((name) => ({ name: secretsEnv[name], type: 'secret', fallback: '', doc: secretDocs[name] }));
  return [...fromEnvOnly, ...fromSettings, ...fromSecrets].sort((a, b) => a.name.localeCompare(b.name));
};

/** The table, markers included. */
export const settingsTable = (): string =>
  [
    tableStart,
    '<!-- generated from core/config/settings-schema.ts: edit the schema, then `npm run docs:settings` -->',
    '| variable | type | default | effect |',
    '|---|---|---|---|',
    ...rows().map((r) => `| \`${r.name}\` | ${cell(r.type)} | ${cell(r.fallback)} | ${cell(r.doc)} |`),
    tableEnd,
  ].join('\n');

/** `readme` with its table replaced by the generated one; throws when the markers are missing. */
export const withSettingsTable = (readme: string): string => {
  const start = readme.indexOf(tableStart);
  const end = readme.indexOf(tableEnd);
  if (start < 0 || end < start) throw new Error(`README.md lacks the settings-table markers (${tableStart} ... ${tableEnd})`);
  return readme.slice(0, start) + settingsTable() + readme.slice(end + tableEnd.length);
};
