/**
 * Evidence ingest vs a raw SQLite insert of the same rows (issue 4 "Measured", issue 12 deliverable 1), at two
 * sizes to show how the cost grows.
 *
 *   node --import tsx bench/ingest.bench.ts                              # 100k and 1M records (the sizes)
 *   BENCH_RECORDS=50000,200000 node --import tsx bench/ingest.bench.ts   # quicker
 *
 * Both sides write to a fresh data dir with the same schema, indexes and pragmas (WAL, synchronous=FULL), in
 * transactions of BENCH_BATCH rows. Raw: a prepared INSERT of ready-made rows (payload JSON and a hash string
 * precomputed outside the timer). Ours: appendEvidence, i.e. envelope + payload schema validation, JCS, chain
 * lookup, SHA-256 per record, head update. Input generation is outside both timers. The two sides take turns
 * batch by batch (alternating which goes first), so on a shared machine both see the same load: the ratio
 * holds steadier than two runs one after the other. The ratio is raw time / our time (our throughput as a
 * fraction of raw): the aim is >= 0.5.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../core/app.ts';
import { examplePayloads } from '../core/audit/examples.ts';
import { appendEvidence } from '../core/audit/store.ts';
import { schemaKeys } from '../core/audit/types.ts';
import type { EvidenceInput, SchemaKey } from '../core/audit/types.ts';
import { verifyChain } from '../core/audit/verify.ts';
import { peakRssMb, printRow, recordFigure, verdict } from './report.ts';

const sizes = (process.env.BENCH_RECORDS ?? '100000,1000000').split(',').map(Number);
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
const timed = (fn: () => void, into: Timing): void => {
  const cpu = process.cpuUsage();
  const t = performance.now();
  fn();
  into.ms += performance.now() - t;
  const used = process.cpuUsage(cpu);
  into.cpuMs += (used.user + used.system) / 1000;
};

type Row = [number, string, string, string, string, string, string, string, string];

/** The raw side: a prepared INSERT in one transaction per batch, rows made outside the timer. */
const rawSide = () => {
  const dir = dataDir('raw');
  const app = createApp({ dataDir: dir, env: {} });
  const insert = app.db.prepare(
    'INSERT INTO audit_records (seq, record_id, project_id, schema_key, timestamp, recorded_at, payload, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const fakeHash = 'f'.repeat(64);
  const recordedAt = new Date().toISOString();
  const write = app.db.transaction((rows: Row[]) => {
    for (const row of rows) insert.run(...row);
  });
  let seq = 0;
  const timing = { ms: 0, cpuMs: 0 };
  return {
    timing,
    run: (batch: readonly EvidenceInput[]): void => {
      const rows = batch.map((r): Row => {
        seq += 1;
        const { record_id, timestamp } = r as { record_id: string; timestamp: string };
        return [seq, record_id, r.project_id, r.schema_key, timestamp, recordedAt, JSON.stringify(r.payload), fakeHash, fakeHash];
      });
      timed(() => write(rows), timing);
    },
    close: (): void => {
      app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** Our side: appendEvidence per batch; closing verifies the whole chain (timed apart). */
const chainSide = () => {
  const dir = dataDir('chain');
  const app = createApp({ dataDir: dir, env: {} });
  const timing = { ms: 0, cpuMs: 0 };
  return {
    timing,
    run: (batch: readonly EvidenceInput[]): void => timed(() => appendEvidence(app, batch), timing),
    verify: async (total: number): Promise<number> => {
      const t = performance.now();
      const checked = await verifyChain(app, projectId);
      if (!checked.valid || checked.head_seq !== total) throw new Error(`chain check failed: ${JSON.stringify(checked)}`);
      return performance.now() - t;
    },
    close: (): void => {
      app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

for (const total of sizes) {
  const perSecond = (ms: number): string => `${Math.round(total / (ms / 1000)).toLocaleString('en-US')} rec/s`;
  const raw = rawSide();
  const chain = chainSide();
  for (let first = 0, turn = 0; first < total; first += batchSize, turn++) {
    const batch = Array.from({ length: Math.min(batchSize, total - first) }, (_, k) => input(first + k));
    if (turn % 2 === 0) {
      raw.run(batch);
      chain.run(batch);
    } else {
      chain.run(batch);
      raw.run(batch);
    }
  }
  const verifyMs = await chain.verify(total);
  const rss = peakRssMb();
  raw.close();
  chain.close();
  const wall = raw.timing.ms / chain.timing.ms;
  const cpu = raw.timing.cpuMs / chain.timing.cpuMs;
  console.log(
    `ingest: ${total.toLocaleString('en-US')} records, six schema keys, batches of ${batchSize} (load average ${loadavg()[0]?.toFixed(1)})`,
  );
  printRow('  raw SQLite insert (baseline)', `${seconds(raw.timing.ms)}  ${perSecond(raw.timing.ms)}  (CPU ${seconds(raw.timing.cpuMs)})`);
  printRow('  appendEvidence (chain)', `${seconds(chain.timing.ms)}  ${perSecond(chain.timing.ms)}  (CPU ${seconds(chain.timing.cpuMs)})`);
  printRow(
    '  ratio raw / chain (aim >= 0.5x)',
    `${wall.toFixed(2)}x wall ${verdict(wall >= 0.5)}, ${cpu.toFixed(2)}x CPU ${verdict(cpu >= 0.5)}`,
  );
  recordFigure({
    bench: 'ingest',
    measured: `chained append vs raw SQLite insert, ${total.toLocaleString('en-US')} records: ${seconds(chain.timing.ms)} vs ${seconds(raw.timing.ms)}`,
    ratio: `${wall.toFixed(2)}x (CPU ${cpu.toFixed(2)}x)`,
    aim: '>= 0.5x',
    met: wall >= 0.5,
  });
  printRow('  verifyChain', `${seconds(verifyMs)}  ${perSecond(verifyMs)}`);
  printRow('  peak RSS of the bench process (both sides)', `${rss.toFixed(0)} MB`);
}
