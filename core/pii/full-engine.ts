import { createPiiEngine } from './engine.ts';
import { nerRecognizer } from './ner/recognizer.ts';
import type { PiiEngine } from './types.ts';

/**
 * The engine every request is scanned with: every built-in pattern recognizer, the English NER (PERSON,
 * LOCATION, NRP) and the custom recognizers of a JSON file. Free of the app (no database), so the scan workers
 * build the very same engine as the main thread.
 */
export const createFullEngine = (customRecognizersFile: string | undefined): PiiEngine =>
  createPiiEngine({
    extraRecognizers: [nerRecognizer],
    ...(customRecognizersFile === undefined ? {} : { customRecognizersFile }),
  });
