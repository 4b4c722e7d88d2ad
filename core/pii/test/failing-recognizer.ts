import type { Recognizer } from '../types.ts';

/** A recognizer that throws on every call, to show a failing engine is reported (scan_error), never a silent pass. */
export const failingRecognizer = (message: string): Recognizer => ({
  name: 'Broken',
  supportedEntities: ['BROKEN'],
  supportedLanguages: ['en'],
  context: [],
  analyze: () => {
    throw new Error(message);
  },
});
