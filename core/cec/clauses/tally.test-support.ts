import { type EvidenceFilter, shapedPages } from '../../audit/evidence-rows.ts';
import type { Queryable } from '../../store/database.ts';
import { type TalliedRow, talliedShape } from './evidence-tally.ts';

/** The project's rows in the range as a build's pass reads them for the tally, one at a time. */
export async function* talliedRows(db: Queryable, q: EvidenceFilter): AsyncGenerator<TalliedRow> {
  for await (const page of shapedPages(db, q, 1000, { after: 0, through: Number.MAX_SAFE_INTEGER }, talliedShape(db.dialect))) {
    yield* page;
  }
}
