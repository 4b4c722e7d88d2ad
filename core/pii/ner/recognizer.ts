import type { Finding, Recognizer } from '../types.ts';
import { findNamedEntities } from './compromise-ner.ts';
import { nerInfo } from './info.ts';

/** Presidio's SpacyRecognizer gives every NER entity the same fixed score. */
export const nerScore = 0.85;

/**
 * English named-entity recognizer (PERSON, LOCATION, NRP) without Python: compromise's tagger in-process.
 * Like every recognizer it reports UTF-16 offsets; the engine converts findings to code points once.
 */
export const nerRecognizer: Recognizer = {
  ...nerInfo,
  analyze: ({ text }) =>
    findNamedEntities(text).map(
      (span): Finding => ({
        type: span.type,
        start: span.start,
        end: span.end,
        score: nerScore,
        explanation: {
          recognizer: nerInfo.name,
          originalScore: nerScore,
          score: nerScore,
          textualExplanation: `Identified as ${span.type} by compromise's English tagger`,
        },
      }),
    ),
};
