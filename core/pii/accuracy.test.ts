/**
 * Precision and recall per entity type on the generated labelled corpus (test/accuracy-corpus.ts), printed
 * as a table. Checksum-validated types must reach 0.95 on both.
 */
import { describe, expect, it } from 'vitest';
import { createPiiEngine } from './engine.ts';
import { accuracyCorpus } from './test/accuracy-corpus.ts';

const engine = createPiiEngine();

const measure = (entity: string, language: string, cases: ReturnType<typeof accuracyCorpus>[number]['cases']) => {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const c of cases) {
    const cps = [...c.text];
    const hits = engine.scan(c.text, { language, entities: [entity] }).entities.map((f) => cps.slice(f.start, f.end).join(''));
    if (c.expected === null) fp += hits.length;
    else if (hits.includes(c.expected)) {
      tp++;
      fp += hits.length - 1;
    } else {
      fn++;
      fp += hits.length;
    }
  }
  return { precision: tp + fp === 0 ? 1 : tp / (tp + fp), recall: tp + fn === 0 ? 1 : tp / (tp + fn), cases: cases.length };
};

describe('accuracy on the labelled corpus', () => {
  const corpus = accuracyCorpus();
  const rows = corpus.map((c) => ({
    entity: c.entity,
    language: c.language,
    checksum: c.checksum,
    ...measure(c.entity, c.language, c.cases),
  }));

  it('prints precision and recall per entity', () => {
    const line = (r: (typeof rows)[number]) =>
      `${r.entity.padEnd(26)} ${r.language}  ${r.checksum ? 'checksum' : '        '}  n=${String(r.cases).padStart(3)}  P=${r.precision.toFixed(2)}  R=${r.recall.toFixed(2)}`;
    process.stdout.write(`PII accuracy (threshold 0, entity filter = the type)\n${rows.map(line).join('\n')}\n`);
    expect(rows.length).toBeGreaterThan(60);
  });

  it('covers every loaded pattern entity type', () => {
    const covered = new Set(corpus.map((c) => c.entity));
    const missing = engine.entityTypes().filter((t) => !covered.has(t));
    expect(missing).toEqual([]);
  });

  for (const row of rows.filter((r) => r.checksum)) {
    it(`${row.entity}: precision and recall >= 0.95`, () => {
      expect(row.precision).toBeGreaterThanOrEqual(0.95);
      expect(row.recall).toBeGreaterThanOrEqual(0.95);
    });
  }
});
