import { z } from 'zod';
import type { Queryable } from '../../../store/database.ts';

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
