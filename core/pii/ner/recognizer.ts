import type { Finding, Recognizer } from '../types.ts';
import { utf16ToCodePoints } from './code-points.ts';
import { findNamedEntities } from './compromise-ner.ts';

/** Presidio's SpacyRecognizer gives every NER entity the same fixed score. */
export const nerScore = 0.85;
export const nerEntities = ['PERSON', 'LOCATION', 'NRP'] as const;

/**
 * English named-entity recognizer (PERSON, LOCATION, NRP) without Python: compromise's tagger in-process.
 * Offsets are Unicode code points, like every other finding.
 */
export const nerRecognizer: Recognizer = {
  name: 'CompromiseNerRecognizer',
  supportedEntities: nerEntities,
  supportedLanguages: ['en'],
  context: [],
  analyze: ({ text }) => {
    const toCodePoint = utf16ToCodePoints(text);
    return findNamedEntities(text).map(
      (span): Finding => ({
        type: span.type,
        start: toCodePoint(span.start),
        end: toCodePoint(span.end),
        score: nerScore,
        explanation: {
          recognizer: 'CompromiseNerRecognizer',
          originalScore: nerScore,
          score: nerScore,
          textualExplanation: `Identified as ${span.type} by compromise's English tagger`,
        },
      }),
    );
  },
};
