import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type App, service } from '../app.ts';
import { envSetting } from '../config/env-settings.ts';
import { createFullEngine } from './full-engine.ts';
import type { PiiEngine } from './types.ts';

/** The service key of the app's engine (tests may pre-seed it with an engine of their own). */
export const piiEngineKey = 'pii.engine';

/** `SVC_PII_RECOGNIZERS_FILE`, else `<dataDir>/recognizers.json` when that file exists. */
export const customRecognizersFileOf = (app: App): string | undefined => {
  const fromEnv = envSetting(app.env, 'piiRecognizersFile');
  if (fromEnv !== '') return fromEnv;
  if (app.dataDir === null) return undefined;
  const inDataDir = join(app.dataDir, 'recognizers.json');
  return existsSync(inDataDir) ? inDataDir : undefined;
};

/**
 * The app's PII engine: every built-in pattern recognizer, the English NER (PERSON, LOCATION, NRP) and the
 * custom recognizers of the JSON config file, built once per app.
 */
export const defaultPiiEngine = (app: App): PiiEngine => service(app, piiEngineKey, () => createFullEngine(customRecognizersFileOf(app)));
