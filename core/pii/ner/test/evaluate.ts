import type { Finding } from '../../types.ts';
import type { GoldSpan, LabelledSentence } from './ner-corpus.ts';

export type EntityScores = { tp: number; fp: number; fn: number; precision: number; recall: number; f1: number };

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }): boolean => a.start < b.end && b.start < a.end;

/**
 * Precision, recall and F1 per entity type. A prediction counts as a true positive when it overlaps an unused
 * gold span of the same type (partial credit as in most NER evaluations of PII tools); `strict` demands the
 * exact span instead.
 */
export const evaluateNer = (
  corpus: readonly LabelledSentence[],
  predict: (text: string) => readonly Finding[],
  types: readonly GoldSpan['type'][],
  strict = false,
): Record<string, EntityScores> => {
  const counts = Object.fromEntries(types.map((type) => [type, { tp: 0, fp: 0, fn: 0 }]));
  for (const sentence of corpus) {
    const predictions = predict(sentence.text);
    for (const type of types) {
      const gold = sentence.gold.filter((span) => span.type === type);
      const used = new Set<number>();
      const tally = counts[type] ?? { tp: 0, fp: 0, fn: 0 };
      for (const prediction of predictions.filter((finding) => finding.type === type)) {
        const index = gold.findIndex(
          (span, i) =>
            !used.has(i) && (strict ? span.start === prediction.start && span.end === prediction.end : overlaps(span, prediction)),
        );
        if (index >= 0) {
          used.add(index);
          tally.tp++;
        } else tally.fp++;
      }
      tally.fn += gold.length - used.size;
    }
  }
  return Object.fromEntries(
    Object.entries(counts).map(([type, { tp, fp, fn }]) => {
      const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
      const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
      const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
      return [type, { tp, fp, fn, precision, recall, f1 }];
    }),
  );
};
