import { z } from 'zod';
import type { Database, Queryable } from '../store/database.ts';
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
  /** Synchronous (it runs on every request): the stored values held in memory, overlaid by the environment. */
  get(): Settings;
  view(): SettingsView;
  /** Validates, writes through the Database in one transaction, tells the other instances, then reloads. */
  update(patch: SettingsPatch): Promise<SettingsView>;
  /** Reads the stored values again (another instance changed them, or a listener reconnected). */
  reload(): Promise<void>;
  secret(name: SecretName): string | undefined;
  setSecret(name: SecretName, value: string | null): void;
};

/** What every instance on one PostgreSQL database LISTENs on; the writer of a change sends NOTIFY in its transaction. */
export const settingsChannel = 'svc_settings';

/** The stored settings: JSON values by key, as the `settings` table holds them. */
export type StoredSettings = Readonly<Record<string, unknown>>;
const settingRow = z.object({ key: z.string(), value: z.string() });
const selectStored = 'SELECT key, value FROM settings';
const storedOf = (rows: readonly z.infer<typeof settingRow>[]): StoredSettings =>
  Object.fromEntries(rows.map((row) => [row.key, JSON.parse(row.value) as unknown]));

/** Read through the Database: openApp, and every reload. */
export const loadStoredSettings = async (database: Queryable): Promise<StoredSettings> =>
  storedOf(await database.all(settingRow, selectStored));

/** Read synchronously from the SQLite connection: createApp is synchronous (tests, benches, the SQLite file). */
export const readStoredSettings = (db: Db): StoredSettings =>
  storedOf(
    db
      .prepare(selectStored)
      .all()
      .map((row) => settingRow.parse(row)),
  );

const coerceEnv = (key: SettingKey, raw: string): unknown => {
  const sample = settingDefaults[key];
  if (typeof sample === 'boolean') return raw === 'true' || raw === '1';
  if (typeof sample === 'number') return Number(raw);
  return raw;
};

/**
 * Settings persisted in the `settings` table, held in memory (`initial`, then each reload), overlaid by the
 * environment. Secrets go to the SecretStore, never to the database.
 */
export const createSettingsService = (
  database: Database,
  secrets: SecretStore,
  env: NodeJS.ProcessEnv,
  initial: StoredSettings,
): SettingsService => {
  let stored = initial;
  let started = 0;
  let applied = 0;
  const reload = async (): Promise<void> => {
    // Reloads overlap (our own NOTIFY arrives while update's reload runs): a read started later is at least as
    // fresh, so a result is applied unless a later-started one already was.
    const ticket = ++started;
    const fresh = await loadStoredSettings(database);
    if (ticket > applied) {
      applied = ticket;
      stored = fresh;
    }
  };
  const envOverrides = (): Partial<Record<SettingKey, unknown>> => {
    const out: Partial<Record<SettingKey, unknown>> = {};
    for (const [key, name] of Object.entries(settingsEnv) as [SettingKey, string][]) {
      const raw = env[name];
      if (raw !== undefined && raw !== '') out[key] = coerceEnv(key, raw);
    }
    return out;
  };
  /** The environment's raw setting values, as one string: what `get` compares to reuse its last parse. */
  const envKey = (): string => {
    let key = '';
    for (const name of Object.values(settingsEnv)) key += `${env[name] ?? ''}\u0000`;
    return key;
  };
  /**
   * The last parse, frozen, reused while the stored values and the environment are unchanged: parsing every
   * setting costs ~70 µs and a request asks several times (a PII scan four).
   */
  let last: { stored: StoredSettings; env: string; settings: Settings } | undefined;
  /**
   * process.env is read once: nothing outside a running process changes its environment, and each variable read
   * from it costs ~0.4 µs (9 µs a call, a scan request makes four). An env object a caller passes (tests) is
   * read on every call.
   */
  const processEnvKey = env === process.env ? envKey() : undefined;
  const get = (): Settings => {
    const envNow = processEnvKey ?? envKey();
    if (last !== undefined && last.stored === stored && last.env === envNow) return last.settings;
    const merged = { ...settingDefaults, ...stored, ...envOverrides() };
    const parsed = settingsSchema.safeParse(merged);
    if (parsed.success) {
      last = { stored, env: envNow, settings: Object.freeze(parsed.data) };
      return last.settings;
    }
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
    reload,
    update: async (patch) => {
      const changes = settingsPatchSchema.parse(patch);
      await database.transaction(async (tx) => {
        // Validated against what is stored now (another instance may have written since our last reload).
        const next = settingsSchema.parse({ ...settingDefaults, ...(await loadStoredSettings(tx)), ...changes });
        for (const key of Object.keys(changes) as SettingKey[]) {
          await tx.run('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [
            key,
            JSON.stringify(next[key]),
          ]);
        }
        // Delivered to every listening instance when (and only if) this transaction commits.
        if (tx.dialect === 'postgres') await tx.run(`NOTIFY ${settingsChannel}`);
      });
      await reload();
      return view();
    },
    setSecret: (name, value) => (value === null ? secrets.delete(name) : secrets.set(name, value)),
  };
};
