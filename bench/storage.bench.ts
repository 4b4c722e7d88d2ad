/**
 * The storage layer's cost (issue 15, the data-access decision in docs/decisions.md): BENCH_ROWS (10k) single-row
 * INSERTs in one transaction, then one SELECT of them all, on SQLite (a file, WAL, synchronous=FULL) and on a
 * throw-away PostgreSQL server started here (as in the tests). Per back end, the baseline is the raw driver
 * (better-sqlite3 prepared statements; node-postgres with $n placeholders); "ours" is the async Database
 * (core/store/) with zod-parsed rows. With BENCH_KYSELY=<dir of an installed kysely>, Kysely (its SqliteDialect
 * and PostgresDialect) runs too:
 *
 *   npm install --prefix /tmp/kbench kysely
 *   BENCH_KYSELY=/tmp/kbench/node_modules/kysely node --import tsx bench/storage.bench.ts
 *
 * Ratios are baseline time / option time (1.00x = as fast as the raw driver); the median of BENCH_RUNS runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { z } from 'zod';
import type { Database } from '../core/store/database.ts';
import { connectPostgres, postgresDatabase } from '../core/store/postgres-database.ts';
import { sqliteDatabase } from '../core/store/sqlite-database.ts';
import { sharedServer, stopSharedServer } from '../core/test-support/postgres-server.ts';
import { printRow, ratio } from './report.ts';

const rowCount = Number(process.env.BENCH_ROWS ?? 10_000);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const table = 'CREATE TABLE bench_rows (id BIGINT PRIMARY KEY, project_id TEXT NOT NULL, payload TEXT NOT NULL, hash TEXT NOT NULL)';
type BenchRow = { id: number; project_id: string; payload: string; hash: string };
const benchRow = z.object({ id: z.number(), project_id: z.string(), payload: z.string(), hash: z.string() });
const rows: BenchRow[] = Array.from({ length: rowCount }, (_, i) => ({
  id: i + 1,
  project_id: 'bench',
  payload: JSON.stringify({ model: 'm', tokens: i, labels: { run: String(i) } }),
  hash: (i * 2654435761).toString(16).padStart(64, '0'),
}));
const insertSql = 'INSERT INTO bench_rows (id, project_id, payload, hash) VALUES (?, ?, ?, ?)';
const selectSql = 'SELECT id, project_id, payload, hash FROM bench_rows ORDER BY id';

/** One way of doing the round trip on a fresh, empty bench_rows; resolves to the rows read back. */
type Way = { readonly name: string; roundTrip(): Promise<readonly unknown[]>; reset(): Promise<void> };

const ours = (db: Database): Pick<Way, 'roundTrip' | 'reset'> => ({
  roundTrip: async () => {
    await db.transaction(async (tx) => {
      for (const r of rows) await tx.run(insertSql, [r.id, r.project_id, r.payload, r.hash]);
    });
    return db.all(benchRow, selectSql);
  },
  reset: () => db.exec('DELETE FROM bench_rows'),
});

/** The minimal shape of Kysely used here (it is not a dependency of the project). */
type KyselyDb = {
  transaction(): { execute<T>(fn: (trx: KyselyDb) => Promise<T>): Promise<T> };
  insertInto(t: string): { values(v: BenchRow): { execute(): Promise<unknown> } };
  selectFrom(t: string): { selectAll(): { orderBy(c: string): { execute(): Promise<unknown[]> } } };
  deleteFrom(t: string): { execute(): Promise<unknown> };
};
type KyselyModule = {
  Kysely: new (config: { dialect: unknown }) => KyselyDb;
  SqliteDialect: new (config: { database: unknown }) => unknown;
  PostgresDialect: new (config: { pool: unknown }) => unknown;
};
const kyselyWay = (db: KyselyDb): Pick<Way, 'roundTrip' | 'reset'> => ({
  roundTrip: async () => {
    await db.transaction().execute(async (trx) => {
      for (const r of rows) await trx.insertInto('bench_rows').values(r).execute();
    });
    return (await db.selectFrom('bench_rows').selectAll().orderBy('id').execute()).map((r) => benchRow.parse(r));
  },
  reset: async () => void (await db.deleteFrom('bench_rows').execute()),
});

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const measure = async (backend: string, ways: readonly Way[]): Promise<void> => {
  const times = new Map<string, number[]>(ways.map((w) => [w.name, []]));
  for (let run = 0; run < runs; run++) {
    for (const way of ways) {
      await way.reset();
      const started = performance.now();
      const back = await way.roundTrip();
      times.get(way.name)?.push(performance.now() - started);
      if (back.length !== rowCount) throw new Error(`${backend} ${way.name}: read ${back.length} rows, wrote ${rowCount}`);
    }
  }
  const baseline = median(times.get(ways[0]?.name ?? '') ?? []);
  for (const way of ways) {
    const ms = median(times.get(way.name) ?? []);
    printRow(`${backend}: ${way.name}`, `${ms.toFixed(0)} ms  (${ratio(baseline, ms)} of raw)`);
  }
};

const kysely = process.env.BENCH_KYSELY ? ((await import(join(process.env.BENCH_KYSELY, 'dist/esm/index.js'))) as KyselyModule) : undefined;
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-storage-'));
try {
  printRow('rows per round trip (insert in one transaction, then select all)', String(rowCount));
  const file = new Sqlite(join(dir, 'bench.sqlite'));
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = FULL');
  file.exec(table);
  const insert = file.prepare(insertSql);
  const select = file.prepare(selectSql);
  const sqliteWays: Way[] = [
    {
      name: 'raw better-sqlite3',
      roundTrip: async () => {
        file.transaction(() => {
          for (const r of rows) insert.run(r.id, r.project_id, r.payload, r.hash);
        })();
        return select.all();
      },
      reset: async () => void file.exec('DELETE FROM bench_rows'),
    },
    { name: 'ours (async Database + zod rows)', ...ours(sqliteDatabase(file)) },
  ];
  if (kysely)
    sqliteWays.push({
      name: 'Kysely SqliteDialect',
      ...kyselyWay(new kysely.Kysely({ dialect: new kysely.SqliteDialect({ database: file }) })),
    });
  await measure('SQLite', sqliteWays);
  file.close();

  const server = await sharedServer(dir);
  if ('error' in server) throw new Error(server.error);
  const pool = await connectPostgres(server.url, { source: 'bench', max: 4 });
  await pool.query(table);
  const numbered = 'INSERT INTO bench_rows (id, project_id, payload, hash) VALUES ($1, $2, $3, $4)';
  const postgresWays: Way[] = [
    {
      name: 'raw node-postgres',
      roundTrip: async () => {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          for (const r of rows) await client.query(numbered, [r.id, r.project_id, r.payload, r.hash]);
          await client.query('COMMIT');
        } finally {
          client.release();
        }
        return (await pool.query(selectSql)).rows;
      },
      reset: async () => void (await pool.query('DELETE FROM bench_rows')),
    },
    { name: 'ours (async Database + zod rows)', ...ours(postgresDatabase(pool)) },
  ];
  // BIGINT as numbers, as our pool reads them, so both return the same rows.
  const int8AsNumber = ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? Number : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'];
  const kyselyPool = kysely ? new pg.Pool({ connectionString: server.url, max: 4, types: { getTypeParser: int8AsNumber } }) : undefined;
  kyselyPool?.on('error', () => undefined);
  if (kysely && kyselyPool) {
    postgresWays.push({
      name: 'Kysely PostgresDialect',
      ...kyselyWay(new kysely.Kysely({ dialect: new kysely.PostgresDialect({ pool: kyselyPool }) })),
    });
  }
  await measure('PostgreSQL', postgresWays);
  await kyselyPool?.end();
  await pool.end();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await stopSharedServer(dir);
  rmSync(dir, { recursive: true, force: true });
}
