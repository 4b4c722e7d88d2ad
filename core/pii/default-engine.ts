import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type App, service } from '../app.ts';
import { envSetting } from '../config/env-settings.ts';
import { loadCustomRecognizers } from './adhoc.ts';
import { catalogOf, type EngineCatalog } from './catalog.ts';
import { DEFAULT_LANGUAGE } from './engine.ts';
import { nerInfo } from './ner/info.ts';
import { builtInRecognizers } from './registry.ts';
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
 * What the app's engine scans for, without building it: the declarations of the recognizers createFullEngine
 * puts together (full-engine.ts; a test holds the two equal). Once the engine exists (built, or seeded by a
 * test), it answers itself. A broken custom recognizers file throws here as it would building the engine.
 */
export const piiCatalog = (app: App): EngineCatalog =>
  (app.services.get(piiEngineKey) as PiiEngine | undefined) ??
  service(app, 'pii.catalog', () => {
    const file = customRecognizersFileOf(app);
    const custom = file === undefined ? [] : loadCustomRecognizers(file, DEFAULT_LANGUAGE);
    return catalogOf([...builtInRecognizers(), nerInfo, ...custom]);
  });

/**
 * The app's PII engine for in-process scans (the CLI, the SDK, a server without scan workers): every built-in
 * pattern recognizer, the English NER (PERSON, LOCATION, NRP) and the custom recognizers of the JSON config
 * file, built once per app. Imported on first use: the NER's tagger costs about a second to load.
 */
export const defaultPiiEngine = async (app: App): Promise<PiiEngine> => {
  const built = app.services.get(piiEngineKey) as PiiEngine | undefined;
  if (built !== undefined) return built;
  const { createFullEngine } = await import('./full-engine.ts');
  return service(app, piiEngineKey, () => createFullEngine(customRecognizersFileOf(app)));
};
