import { z } from 'zod';
import type { Dialect } from '../../../store/database.ts';
import type { LeafTest } from './leaf-sql.ts';

/**
 * The numbers a query selects, aggregated by the database into one JSON array text, which V8 parses natively:
 * about three times cheaper than stepping 100k result rows through the driver.
 */
export const jsonList = (dialect: Dialect, expression: string): string =>
  dialect === 'postgres' ? `COALESCE(json_agg(${expression}), '[]')::text` : `json_group_array(${expression})`;
export const listRow = z.object({ list: z.string() });

/** `uid` among the given users: a primary-key look-up per uid (SQLite: json_each; PostgreSQL: an array). */
export const uidIn = (dialect: Dialect, uids: readonly number[]): LeafTest =>
  dialect === 'postgres'
    ? { text: 'uid = ANY(?::bigint[])', params: [`{${uids.join(',')}}`] }
    : { text: 'uid IN (SELECT value FROM json_each(?))', params: [JSON.stringify(uids)] };
