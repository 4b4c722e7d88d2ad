import type { Queryable } from '../../../store/database.ts';
import type { Json } from '../normalize.ts';
import { indexInsertSql, indexParams, indexRowsOf } from './attr-index.ts';
import { writeElementRows } from './element-rows.ts';
import { writeSingleRow } from './single-rows.ts';

// Rows per INSERT: keeps the statement texts (cached per text by both back ends) to a small finite set.
const chunkSize = 64;

/**
 * Replaces a user's index rows, element rows (element-rows.ts) and single-valued row (single-rows.ts) inside the
 * caller's write transaction; an undefined resource removes them.
 */
export const writeUserIndex = async (tx: Queryable, uid: number, resource: Json | undefined): Promise<void> => {
  await tx.run('DELETE FROM scim_user_attrs WHERE uid = ?', [uid]);
  const rows = resource === undefined ? undefined : indexRowsOf('User', resource);
  for (let start = 0; rows !== undefined && start < rows.length; start += chunkSize) {
    const chunk = rows.slice(start, start + chunkSize);
    await tx.run(indexInsertSql(chunk.length), indexParams(uid, chunk));
  }
  await writeElementRows(tx, uid, rows);
  await writeSingleRow(tx, uid, rows);
};
