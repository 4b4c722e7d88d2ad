import type { RecognizerInfo } from '../catalog.ts';

/**
 * What the English NER finds, without compromise (its tagger costs about a second to load): the serving main
 * thread lists these types while only the scan workers load the recognizer itself (recognizer.ts).
 */
export const nerInfo = {
  name: 'CompromiseNerRecognizer',
  supportedEntities: ['PERSON', 'LOCATION', 'NRP'],
  supportedLanguages: ['en'],
  context: [],
} as const satisfies RecognizerInfo & { readonly name: string; readonly context: readonly string[] };
