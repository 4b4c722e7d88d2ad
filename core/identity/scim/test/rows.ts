import { expect } from 'vitest';
import { z } from 'zod';
import type { Queryable } from '../../../store/database.ts';
import { planIndexedFilter } from '../filter/indexed.ts';
import { parseFilter } from '../filter/parser.ts';

/** The userNames of the given uids, in uid order (what a planner test's window selected). */
export const userNamesOf = async (db: Queryable, uids: readonly number[]): Promise<string[]> =>
  (
    await db.all(
      z.object({ user_name: z.string() }),
      `SELECT user_name FROM scim_users WHERE uid IN (${uids.map(() => '?').join(', ') || 'NULL'}) ORDER BY uid`,
      uids,
    )
  ).map((row) => row.user_name);

/** Empties a derived table and refills it with its migration's backfill, to compare with what the writer left. */
export const backfillAgain = async (db: Queryable, table: string, backfill: string): Promise<void> => {
  await db.run(`DELETE FROM ${table}`);
  await db.run(backfill);
};

/**
 * Runs `filter`'s plan with every node counted as broad (narrowTo 0: the row tables answer, not the attribute
 * index) on `db`, and checks that its first page holds exactly the users named `expected` and that it counts them.
 */
export const expectBroadPlanAnswer = async (
  database: Queryable,
  filter: string,
  expected: readonly string[],
  db: Queryable = database,
): Promise<void> => {
  const window = await planIndexedFilter(parseFilter(filter), { narrowTo: 0 })?.(db, 0, 100);
  expect({ filter, users: await userNamesOf(database, window?.uids ?? []), total: window?.total }).toEqual({
    filter,
    users: expected,
    total: expected.length,
  });
};
