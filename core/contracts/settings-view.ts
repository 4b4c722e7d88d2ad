import { z } from 'zod';

/**
 * What the Settings screen reads from the settings JSON Schema (`settings.get` → `schema`) to choose a control
 * for each setting. Loose objects: the server sends the whole JSON Schema; the screen needs only these keys.
 */
export const settingFieldSchema = z.looseObject({
  type: z.string().optional(),
  enum: z.array(z.string()).optional(),
  anyOf: z.array(z.unknown()).optional(),
  title: z.string().optional(),
  description: z.string().optional(),
});
export type SettingField = z.output<typeof settingFieldSchema>;

export const settingsFormSchema = z.looseObject({ properties: z.record(z.string(), settingFieldSchema) });
export type SettingsForm = z.output<typeof settingsFormSchema>;
