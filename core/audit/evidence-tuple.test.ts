/**
 * evidenceTuple (the hand-written row check of the store's hot paths) accepts and refuses exactly what the zod
 * row schema `evidenceRow` does, field by field, so reading rows as arrays skipped no check.
 */
import { describe, expect, it } from 'vitest';
import { recordColumns } from './evidence-rows.ts';
import { evidenceRow } from './store.ts';
import { evidenceTuple } from './evidence-rows.ts';

const good = {
  seq: 7,
  record_id: 'rec_1',
  project_id: 'proj',
  schema_key: 'gate_evaluations',
  timestamp: '2026-02-01T00:00:00.000Z',
  recorded_at: '2026-02-01T00:00:01.000Z',
  payload: '{"a":1}',
  prev_hash: 'a'.repeat(64),
  hash: 'b'.repeat(64),
} as const;
const columns = recordColumns.split(', ') as (keyof typeof good)[];
const tuple = (row: Record<string, unknown>): unknown[] => columns.map((column) => row[column]);

describe('evidenceTuple', () => {
  it('gives the row evidenceRow gives for a stored row', () => {
    expect(evidenceTuple(tuple(good))).toEqual(evidenceRow.parse(good));
  });

  const wrong: unknown[] = [null, undefined, 1, '1', {}, 'not_a_key'];
  it.each(columns)('refuses whatever evidenceRow refuses in %s, naming the field', (column) => {
    for (const value of wrong) {
      const row = { ...good, [column]: value };
      const zodAccepts = evidenceRow.safeParse(row).success;
      if (zodAccepts) expect(evidenceTuple(tuple(row))).toEqual(evidenceRow.parse(row));
      else expect(() => evidenceTuple(tuple(row))).toThrow(`invalid ${column}`);
    }
  });
});
