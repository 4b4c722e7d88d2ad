import type { App } from '../core/app.ts';
import { indexInsertSql, indexParams, indexRowsOf } from '../core/identity/scim/filter/attr-index.ts';
import { backfillElementRowsSql } from '../core/identity/scim/filter/element-rows.ts';
import { backfillSingleRowsSql } from '../core/identity/scim/filter/single-rows.ts';
import { newId } from '../core/identity/scim/ids.ts';
import { normalizeResource } from '../core/identity/scim/normalize.ts';
import { userNameKey } from '../core/identity/scim/users.ts';
import { userToWire } from '../core/identity/scim/wire.ts';

/**
 * Seeds `count` users as createUser stores them (same rows, same index rows), in batches of multi-row INSERTs:
 * 100k single creates cost minutes of transactions, and the seed is not what is measured. The element rows and
 * the single-valued rows come from the index rows at the end, as the migrations backfill them (the same rows
 * createUser writes; tested in core/identity/scim/filter/element-rows.test.ts and single-rows.test.ts).
 */
export const seedUsers = async (app: App, count: number): Promise<string> => {
  let sampleId = '';
  const now = app.now().toISOString();
  for (let start = 0; start < count; start += 200) {
    const batch = Array.from({ length: Math.min(200, count - start) }, (_, offset) => {
      const index = start + offset;
      const resource = normalizeResource('User', {
        userName: `user-${index}@example.com`,
        name: { givenName: `Given${index}`, familyName: `Family${index}` },
        emails: [{ value: `user-${index}@example.com`, type: 'work', primary: true }],
        title: index % 10 === 0 ? 'Engineer' : 'Analyst',
        externalId: `ext-${index}`,
        active: true,
      });
      const row = {
        id: newId(app, 'scim-user-'),
        uid: index + 1,
        user_name: resource['userName'] as string,
        external_id: resource['externalId'] as string,
        active: 1,
        resource: JSON.stringify(resource),
        version: 1,
        created_at: now,
        updated_at: now,
      };
      if (index === Math.floor(count / 2)) sampleId = row.id;
      return row;
    });
    await app.database.transaction(async (tx) => {
      await tx.run(
        `INSERT INTO scim_users (id, uid, user_name, user_name_key, external_id, active, resource, version, created_at, updated_at) VALUES ${batch
          .map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
          .join(', ')}`,
        batch.flatMap((row) => [row.id, row.uid, row.user_name, userNameKey(row.user_name), row.external_id, 1, row.resource, 1, now, now]),
      );
      const rows = batch.flatMap((row) => indexRowsOf('User', userToWire(row, [], '')).map((indexRow) => ({ uid: row.uid, indexRow })));
      for (let at = 0; at < rows.length; at += 64) {
        const chunk = rows.slice(at, at + 64);
        await tx.run(
          indexInsertSql(chunk.length),
          chunk.flatMap(({ uid, indexRow }) => indexParams(uid, [indexRow])),
        );
      }
    });
  }
  await app.database.run(backfillElementRowsSql);
  await app.database.run(backfillSingleRowsSql);
  return sampleId;
};
