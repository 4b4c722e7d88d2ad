/**
 * Evidence ingest vs a raw insert of the same rows, on SQLite and on PostgreSQL in one run (issue 12 deliverable
 * 1, issue 15 "bench/ reports ingest throughput with one and two instances on PostgreSQL next to SQLite").
 *
 *   node --import tsx bench/ingest.bench.ts                              # 100k and 1M records (the sizes)
 *   BENCH_RECORDS=50000,200000 node --import tsx bench/ingest.bench.ts   # quicker
 *   BENCH_POSTGRES_RECORDS=20000 ...                                     # PostgreSQL size (default 100k; 0 skips)
 *
 * SQLite: both sides write to a fresh data dir with the same schema, indexes and pragmas (WAL, synchronous=FULL),
 * in transactions of BENCH_BATCH rows. Raw: a prepared INSERT of ready-made rows (payload JSON and a hash string
 * precomputed outside the timer). Ours: appendEvidence on `app.database`, i.e. envelope + payload schema
 * validation, JCS, chain lock and head lookup, SHA-256 per record, head update. Input generation is outside both
 * timers. The two sides take turns batch by batch (alternating which goes first), so on a shared machine both see
 * the same load: the ratio holds steadier than two runs one after the other. The ratio is raw time / our time
 * (our throughput as a fraction of raw): the aim is >= 0.5.
 *
 * PostgreSQL: a throw-away server started here (core/test-support/postgres-server.ts: the machine's initdb and
 * postgres, fsync off, as in the tests), skipped with the reason printed when none can be started. Raw: the same
 * ready-made rows as multi-row INSERTs of 1,000 in one transaction per batch (the best a client can do without
 * COPY). Ours, one instance: appendEvidence per batch. Two instances: two apps with their own pools on one
 * database, each appending half of every batch to the same project at the same time (they contend for the
 * project's chain lock, as two `svc serve` behind a load balancer do). Then over HTTP: one, then two real
 * `svc serve` processes (the CLI entry, core/store/serve-process.test-support.ts) on databases of their own, each
 * batch POSTed to /v1/audit/records, split between the instances at the same time; only wall time means
 * something there (the work is in the server processes). All in the same run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { type App, createApp, openDatabaseApp } from '../core/app.ts';
import { recordColumns } from '../core/audit/evidence-rows.ts';
import { examplePayloads } from '../core/audit/examples.ts';
import { appendEvidence } from '../core/audit/store.ts';
import { schemaKeys } from '../core/audit/types.ts';
import type { EvidenceInput, SchemaKey } from '../core/audit/types.ts';
import { verifyChain } from '../core/audit/verify.ts';
import { createApiKey } from '../core/identity/api-keys/service.ts';
import { postgresMigrations } from '../core/migrations.ts';
import { migratePostgres } from '../core/store/postgres-migrate.ts';
import { connectPostgres, postgresDatabase } from '../core/store/postgres-database.ts';
import { sharedKeysEnv, startServe, stopServed } from '../core/store/serve-process.test-support.ts';
import { sharedServer, stopSharedServer } from '../core/test-support/postgres-server.ts';
import { peakRssSince, printRow, ratio, recordFigure, resetPeakRss, verdict } from './report.ts';

const sizes = (process.env.BENCH_RECORDS ?? '100000,1000000').split(',').map(Number);
const postgresSize = Number(process.env.BENCH_POSTGRES_RECORDS ?? 100_000);
const batchSize = Number(process.env.BENCH_BATCH ?? 5_000);
const projectId = 'bench';
const start = Date.UTC(2026, 0, 1);

/** The i-th record: six keys in turn, distinct content per record, one event a second. */
const input = (i: number): EvidenceInput => {
  const key = schemaKeys[i % schemaKeys.length] as SchemaKey;
  return {
    project_id: projectId,
    schema_key: key,
    record_id: `r${i}`,
    timestamp: new Date(start + i * 1000).toISOString(),
    payload: { ...examplePayloads[key], labels: { run: String(i) } },
  };
};

const dataDir = (name: string): string => mkdtempSync(join(tmpdir(), `svc-bench-${name}-`));

type Timing = { ms: number; cpuMs: number };
/** Wall and CPU time of fn; CPU time is the steadier figure on a loaded machine (wall includes fsync waits). */
const timed = async (fn: () => unknown, into: Timing): Promise<void> => {
  const cpu = process.cpuUsage();
  const t = performance.now();
  await fn();
  into.ms += performance.now() - t;
  const used = process.cpuUsage(cpu);
  into.cpuMs += (used.user + used.system) / 1000;
};

type Row = [number, string, string, string, string, string, string, string, string];
type Side = { timing: Timing; run(batch: readonly EvidenceInput[]): Promise<void> };

/** Ready-made rows of a batch (outside the timer): payload JSON and a fake hash, no chain. */
const rawRows = () => {
  const fakeHash = 'f'.repeat(64);
  const recordedAt = new Date().toISOString();
  let seq = 0;
  return (batch: readonly EvidenceInput[]): Row[] =>
    batch.map((r): Row => {
      seq += 1;
      const { record_id, timestamp } = r as { record_id: string; timestamp: string };
      return [seq, record_id, r.project_id, r.schema_key, timestamp, recordedAt, JSON.stringify(r.payload), fakeHash, fakeHash];
    });
};

/** The SQLite raw side: a prepared INSERT in one transaction per batch. */
const rawSqlite = () => {
  const dir = dataDir('raw');
  const app = createApp({ dataDir: dir, env: {} });
  const insert = app.db.prepare(`INSERT INTO audit_records (${recordColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const write = app.db.transaction((rows: Row[]) => {
    for (const row of rows) insert.run(...row);
  });
  const rows = rawRows();
  const timing = { ms: 0, cpuMs: 0 };
  return {
    timing,
    run: async (batch: readonly EvidenceInput[]): Promise<void> => {
      const ready = rows(batch);
      await timed(() => write(ready), timing);
    },
    close: (): void => {
      app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** The PostgreSQL raw side: multi-row INSERTs of 1,000 rows in one transaction per batch, on its own database. */
const rawPostgres = (pool: pg.Pool) => {
  const rows = rawRows();
  const timing = { ms: 0, cpuMs: 0 };
  const insert = (n: number): string =>
    `INSERT INTO audit_records (${recordColumns}) VALUES ${Array.from({ length: n }, (_, r) => `(${Array.from({ length: 9 }, (_, c) => `$${r * 9 + c + 1}`).join(', ')})`).join(', ')}`;
  return {
    timing,
    run: async (batch: readonly EvidenceInput[]): Promise<void> => {
      const ready = rows(batch);
      await timed(async () => {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          for (let first = 0; first < ready.length; first += 1000) {
            const slice = ready.slice(first, first + 1000);
            await client.query(insert(slice.length), slice.flat());
          }
          await client.query('COMMIT');
        } finally {
          client.release();
        }
      }, timing);
    },
  };
};

/** Verifies the bench project's chain on `app`, which must hold `total` records; the time it took. */
const verifyAll = async (app: App, total: number): Promise<number> => {
  const t = performance.now();
  const checked = await verifyChain(app, projectId);
  if (!checked.valid || checked.head_seq !== total) throw new Error(`chain check failed: ${JSON.stringify(checked)}`);
  return performance.now() - t;
};

/** A batch cut into `parts` nearly equal slices (none empty), one per instance appending at the same time. */
const shares = <T>(batch: readonly T[], parts: number): T[][] => {
  const size = Math.ceil(batch.length / parts);
  return Array.from({ length: parts }, (_, i) => batch.slice(i * size, (i + 1) * size)).filter((slice) => slice.length > 0);
};

/** Our side: appendEvidence per batch, spread over `apps` (instances on one database) appending at once. */
const chainSide = (apps: readonly App[]): Side & { verify(total: number): Promise<number> } => {
  const timing = { ms: 0, cpuMs: 0 };
  return {
    timing,
    run: async (batch) => {
      await timed(() => Promise.all(shares(batch, apps.length).map((slice, i) => appendEvidence(apps[i] as App, slice))), timing);
    },
    verify: (total) => verifyAll(apps[0] as App, total),
  };
};

/** Our side over HTTP: each batch POSTed to `origins` (svc serve instances on one database) at once, with `key`. */
const servedSide = (origins: readonly string[], key: string): Side => {
  const timing = { ms: 0, cpuMs: 0 };
  const post = async (origin: string, records: readonly EvidenceInput[]): Promise<void> => {
    const response = await fetch(`${origin}/v1/audit/records`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(records),
    });
    if (response.status !== 201) throw new Error(`append over HTTP failed: ${response.status} ${await response.text()}`);
  };
  return {
    timing,
    run: async (batch) => {
      const t = performance.now();
      await Promise.all(shares(batch, origins.length).map((slice, i) => post(origins[i] as string, slice)));
      timing.ms += performance.now() - t;
    },
  };
};

/** Feeds the same batches to every side, taking turns (the side that goes first rotates). */
const feed = async (total: number, sides: readonly Side[]): Promise<void> => {
  for (let first = 0, turn = 0; first < total; first += batchSize, turn++) {
    const batch = Array.from({ length: Math.min(batchSize, total - first) }, (_, k) => input(first + k));
    for (let k = 0; k < sides.length; k++) await (sides[(turn + k) % sides.length] as Side).run(batch);
  }
};

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const rate = (total: number, ms: number): string => `${Math.round(total / (ms / 1000)).toLocaleString('en-US')} rec/s`;
const ratioRow = (label: string, raw: Timing, ours: Timing): void => {
  const wall = raw.ms / ours.ms;
  const cpu = raw.cpuMs / ours.cpuMs;
  printRow(label, `${wall.toFixed(2)}x wall ${verdict(wall >= 0.5)}, ${cpu.toFixed(2)}x CPU ${verdict(cpu >= 0.5)}`);
};
const timingRow = (label: string, total: number, timing: Timing): void =>
  printRow(label, `${seconds(timing.ms)}  ${rate(total, timing.ms)}  (CPU ${seconds(timing.cpuMs)})`);

for (const total of sizes) {
  // Each size's own peak, not the larger size's before it.
  const startRss = resetPeakRss();
  const raw = rawSqlite();
  const dir = dataDir('chain');
  const app = createApp({ dataDir: dir, env: {} });
  const chain = chainSide([app]);
  await feed(total, [raw, chain]);
  const verifyMs = await chain.verify(total);
  const rss = peakRssSince(startRss);
  raw.close();
  app.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(
    `ingest on SQLite: ${total.toLocaleString('en-US')} records, six schema keys, batches of ${batchSize} (load average ${loadavg()[0]?.toFixed(1)})`,
  );
  timingRow('  raw SQLite insert (baseline)', total, raw.timing);
  timingRow('  appendEvidence (chain)', total, chain.timing);
  ratioRow('  ratio raw / chain (aim >= 0.5x)', raw.timing, chain.timing);
  const wall = raw.timing.ms / chain.timing.ms;
  recordFigure({
    bench: 'ingest',
    measured: `chained append vs raw SQLite insert, ${total.toLocaleString('en-US')} records: ${seconds(chain.timing.ms)} vs ${seconds(raw.timing.ms)}`,
    ratio: `${wall.toFixed(2)}x (CPU ${(raw.timing.cpuMs / chain.timing.cpuMs).toFixed(2)}x), ${rss}`,
    aim: '>= 0.5x',
    met: wall >= 0.5,
  });
  printRow('  verifyChain', `${seconds(verifyMs)}  ${rate(total, verifyMs)}`);
  printRow('  bench process (both sides)', rss);
}

/** One, then two instances on PostgreSQL beside the raw insert on the same server, in one run. */
const postgresBench = async (total: number): Promise<void> => {
  const root = mkdtempSync(join(tmpdir(), 'svc-bench-postgres-'));
  const pools: pg.Pool[] = [];
  const apps: App[] = [];
  try {
    const server = await sharedServer(root);
    if ('error' in server) {
      console.log(`ingest on PostgreSQL: skipped, no server could be started: ${server.error}`);
      return;
    }
    const admin = await connectPostgres(server.url, { source: 'bench server', max: 1 });
    pools.push(admin);
    const database = async (name: string): Promise<string> => {
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(server.url);
      url.pathname = `/${name}`;
      const pool = await connectPostgres(url.toString(), { source: 'bench database', max: 4 });
      pools.push(pool);
      await migratePostgres(pool, postgresMigrations());
      return url.toString();
    };
    const instance = async (url: string): Promise<App> => {
      const pool = await connectPostgres(url, { source: 'bench database', max: 4 });
      pools.push(pool);
      const app = await openDatabaseApp({ dataDir: ':memory:', env: {} }, postgresDatabase(pool), { closeDatabase: false });
      apps.push(app);
      return app;
    };
    const rawUrl = await database('bench_raw');
    const rawPool = await connectPostgres(rawUrl, { source: 'bench database', max: 1 });
    pools.push(rawPool);
    const raw = rawPostgres(rawPool);
    const one = chainSide([await instance(await database('bench_one'))]);
    const twoUrl = await database('bench_two');
    const two = chainSide([await instance(twoUrl), await instance(twoUrl)]);
    /** `count` real `svc serve` processes on a database of their own, and an app on it (for a key and the check). */
    const served = async (name: string, count: number): Promise<{ side: Side; app: App }> => {
      const url = await database(name);
      const env = { SVC_DATABASE_URL: url, ...sharedKeysEnv };
      const origins = (await Promise.all(Array.from({ length: count }, () => startServe(env)))).map((s) => s.origin);
      const app = await instance(url);
      const { secret } = await createApiKey(app, { tier: 'api', scopes: [], name: 'ingest bench' });
      return { side: servedSide(origins, secret), app };
    };
    const servedOne = await served('bench_serve_one', 1);
    const servedTwo = await served('bench_serve_two', 2);
    await feed(total, [raw, one, two, servedOne.side, servedTwo.side]);
    const verifyOne = await one.verify(total);
    await two.verify(total);
    await verifyAll(servedOne.app, total);
    await verifyAll(servedTwo.app, total);
    console.log(
      `ingest on PostgreSQL (loopback, fsync off): ${total.toLocaleString('en-US')} records, batches of ${batchSize} (load average ${loadavg()[0]?.toFixed(1)})`,
    );
    timingRow('  raw multi-row INSERT (baseline)', total, raw.timing);
    timingRow('  appendEvidence, one instance', total, one.timing);
    timingRow('  appendEvidence, two instances', total, two.timing);
    ratioRow('  ratio raw / one instance', raw.timing, one.timing);
    ratioRow('  ratio raw / two instances', raw.timing, two.timing);
    printRow('  verifyChain (one instance)', `${seconds(verifyOne)}  ${rate(total, verifyOne)}`);
    printRow('  over HTTP, one svc serve (wall)', `${seconds(servedOne.side.timing.ms)}  ${rate(total, servedOne.side.timing.ms)}`);
    printRow('  over HTTP, two svc serve (wall)', `${seconds(servedTwo.side.timing.ms)}  ${rate(total, servedTwo.side.timing.ms)}`);
    printRow('  ratio raw / one svc serve (wall)', ratio(raw.timing.ms, servedOne.side.timing.ms));
    printRow('  ratio raw / two svc serve (wall)', ratio(raw.timing.ms, servedTwo.side.timing.ms));
    printRow('  throughput two / one svc serve', ratio(servedOne.side.timing.ms, servedTwo.side.timing.ms));
  } finally {
    stopServed();
    for (const app of apps) await app.close();
    await Promise.all(pools.map((pool) => pool.end()));
    await stopSharedServer(root);
    rmSync(root, { recursive: true, force: true });
  }
};

if (postgresSize > 0) await postgresBench(postgresSize);
