import type { z } from 'zod';
import type { Db } from '../store/db.ts';
import type { SecretStore } from './secret-store.ts';
import {
  type SecretName,
  type SettingKey,
  type Settings,
  secretNames,
  secretsEnv,
  settingDefaults,
  settingsEnv,
  settingsPatchSchema,
  settingsSchema,
} from './settings-schema.ts';
import { AppError } from '../errors.ts';

export type SettingsPatch = z.input<typeof settingsPatchSchema>;

export type SettingsView = {
  readonly values: Settings;
  /** Which settings an environment variable currently overrides (the UI shows them read-only). */
  readonly overriddenByEnv: readonly SettingKey[];
  /** Which secrets are set; never their values. */
  readonly secrets: Readonly<Record<SecretName, { readonly set: boolean; readonly fromEnv: boolean }>>;
};

export type SettingsService = {
  get(): Settings;
  view(): SettingsView;
  update(patch: SettingsPatch): SettingsView;
  secret(name: SecretName): string | undefined;
  setSecret(name: SecretName, value: string | null): void;
};

const coerceEnv = (key: SettingKey, raw: string): unknown => {
  const sample = settingDefaults[key];
  if (typeof sample === 'boolean') return raw === 'true' || raw === '1';
  if (typeof sample === 'number') return Number(raw);
  return raw;
};

/** Settings persisted in SQLite, overlaid by the environment. Secrets go to the SecretStore, never to SQLite. */
export const createSettingsService = (db: Db, secrets: SecretStore, env: NodeJS.ProcessEnv): SettingsService => {
  const stored = (): Record<string, unknown> =>
    Object.fromEntries(
      db
        .prepare('SELECT key, value FROM settings')
        .all()
        .map((row) => {
          const { key, value } = row as { key: string; value: string };
          return [key, JSON.parse(value) as unknown];
        }),
    );
  const envOverrides = (): Partial<Record<SettingKey, unknown>> => {
    const out: Partial<Record<SettingKey, unknown>> = {};
    for (const [key, name] of Object.entries(settingsEnv) as [SettingKey, string][]) {
      const raw = env[name];
      if (raw !== undefined && raw !== '') out[key] = coerceEnv(key, raw);
    }
    return out;
  };
  const get = (): Settings => {
    const merged = { ...settingDefaults, ...stored(), ...envOverrides() };
    const parsed = settingsSchema.safeParse(merged);
    if (parsed.success) return parsed.data;
    const bad = parsed.error.issues.map((issue) => issue.path.join('.')).join(', ');
    throw new AppError('VALIDATION', `Invalid setting(s) from the environment or the settings file: ${bad}`);
  };
  const secret = (name: SecretName): string | undefined => {
    const fromEnv = env[secretsEnv[name]];
    return fromEnv !== undefined && fromEnv !== '' ? fromEnv : secrets.get(name);
  };
  const view = (): SettingsView => ({
    values: get(),
    overriddenByEnv: Object.keys(envOverrides()) as SettingKey[],
    secrets: Object.fromEntries(
      secretNames.map((name) => {
        const fromEnv = Boolean(env[secretsEnv[name]]);
        return [name, { set: fromEnv || secrets.get(name) !== undefined, fromEnv }];
      }),
    ) as SettingsView['secrets'],
  });
  return {
    get,
    view,
    secret,
    update: (patch) => {
      const next = settingsSchema.parse({ ...settingDefaults, ...stored(), ...settingsPatchSchema.parse(patch) });
      const upsert = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
      db.transaction(() => {
        for (const key of Object.keys(patch) as SettingKey[]) upsert.run(key, JSON.stringify(next[key]));
      })();
      return view();
    },
    setSecret: (name, value) => (value === null ? secrets.delete(name) : secrets.set(name, value)),
  };
};
