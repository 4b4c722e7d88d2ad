import type { z } from 'zod';
import { AppError } from '../errors.ts';
import { type EnvOnlySetting, envOnlySettings } from './settings-schema.ts';

export type EnvSettingValue<K extends EnvOnlySetting> = z.output<(typeof envOnlySettings)[K]['schema']>;

/**
 * An environment-only setting (settings-schema.ts `envOnlySettings`): its variable parsed with its schema, or
 * its default when unset or empty. A value the schema refuses is an error naming the variable.
 */
export const envSetting = <K extends EnvOnlySetting>(env: NodeJS.ProcessEnv, key: K): EnvSettingValue<K> => {
  const declared = envOnlySettings[key];
  const raw = env[declared.env];
  if (raw === undefined || raw === '') return declared.default as EnvSettingValue<K>;
  const parsed = declared.schema.safeParse(raw);
  if (!parsed.success) throw new AppError('VALIDATION', `${declared.env}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data as EnvSettingValue<K>;
};
