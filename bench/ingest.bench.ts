/**
 * Evidence ingest vs a raw SQLite insert of the same rows (issue 4 "Measured", issue 12 deliverable 1), at two
 * sizes to show how the cost grows.
 *
 *   node --import tsx bench/ingest.bench.ts                              # 50k and 200k records (npm run bench)
 *   BENCH_RECORDS=100000,1000000 node --import tsx bench/ingest.bench.ts # the sizes
 *
 * Both sides write to a fresh data dir with the same schema, indexes and pragmas (WAL, synchronous=FULL), in
 * transactions of BENCH_BATCH rows. Raw: a prepared INSERT of ready-made rows (payload JSON and a hash string
 * precomputed outside the timer). Ours: appendEvidence, i.e. envelope + payload schema validation, JCS, chain
 * lookup, SHA-256 per record, head update. Input generation is outside both timers. The ratio is raw time /
 * our time (our throughput as a fraction of raw): the aim is >= 0.5.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../core/app.ts';
import { examplePayloads } from '../core/audit/examples.ts';
import { appendEvidence } from '../core/audit/store.ts';
import { schemaKeys } from '../core/audit/types.ts';
import type { EvidenceInput, SchemaKey } from '../core/audit/types.ts';
import { verifyChain } from '../core/audit/verify.ts';
import { printRow, verdict } from './report.ts';

const sizes = (process.env.BENCH_RECORDS ?? '50000,200000').split(',').map(Number);
let total = 0;
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
const batches = function* (): Generator<EvidenceInput[]> {
  for (let first = 0; first < total; first += batchSize) {
    yield Array.from({ length: Math.min(batchSize, total - first) }, (_, k) => input(first + k));
  }
};

const dataDir = (name: string): string => mkdtempSync(join(tmpdir(), `svc-bench-${name}-`));
let peakRss = 0;
const sampleRss = (): void => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
};

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

const raw = (): Timing => {
  const dir = dataDir('raw');
  const app = createApp({ dataDir: dir, env: {} });
  const insert = app.db.prepare(
    'INSERT INTO audit_records (seq, record_id, project_id, schema_key, timestamp, recorded_at, payload, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const fakeHash = 'f'.repeat(64);
  const recordedAt = new Date().toISOString();
  type Row = [number, string, string, string, string, string, string, string, string];
  const write = app.db.transaction((rows: Row[]) => {
    for (const row of rows) insert.run(...row);
  });
  const timing = { ms: 0, cpuMs: 0 };
  let seq = 0;
  for (const batch of batches()) {
    const rows = batch.map((r): Row => {
      seq += 1;
      return [
        seq,
        r.record_id as string,
        r.project_id,
        r.schema_key,
        r.timestamp as string,
        recordedAt,
        JSON.stringify(r.payload),
        fakeHash,
        fakeHash,
      ];
    });
    timed(() => write(rows), timing);
    sampleRss();
  }
  app.close();
  rmSync(dir, { recursive: true, force: true });
  return timing;
};

const ours = async (): Promise<Timing & { verifyMs: number }> => {
  const dir = dataDir('chain');
  const app = createApp({ dataDir: dir, env: {} });
  const timing = { ms: 0, cpuMs: 0 };
  for (const batch of batches()) {
    timed(() => appendEvidence(app, batch), timing);
    sampleRss();
  }
  const t = performance.now();
  const checked = await verifyChain(app, projectId);
  const verifyMs = performance.now() - t;
  if (!checked.valid || checked.head_seq !== total) throw new Error(`chain check failed: ${JSON.stringify(checked)}`);
  app.close();
  rmSync(dir, { recursive: true, force: true });
  return { ...timing, verifyMs };
};

const perSecond = (ms: number): string => `${Math.round(total / (ms / 1000)).toLocaleString('en-US')} rec/s`;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

for (const size of sizes) {
  total = size;
  peakRss = 0;
  const rawTime = raw();
  const chain = await ours();
  const wall = rawTime.ms / chain.ms;
  const cpu = rawTime.cpuMs / chain.cpuMs;
  console.log(`ingest: ${total.toLocaleString('en-US')} records, six schema keys, batches of ${batchSize}`);
  printRow('  raw SQLite insert (baseline)', `${seconds(rawTime.ms)}  ${perSecond(rawTime.ms)}  (CPU ${seconds(rawTime.cpuMs)})`);
  printRow('  appendEvidence (chain)', `${seconds(chain.ms)}  ${perSecond(chain.ms)}  (CPU ${seconds(chain.cpuMs)})`);
  printRow(
    '  ratio raw / chain (aim >= 0.5x)',
    `${wall.toFixed(2)}x wall ${verdict(wall >= 0.5)}, ${cpu.toFixed(2)}x CPU ${verdict(cpu >= 0.5)}`,
  );
  printRow('  verifyChain', `${seconds(chain.verifyMs)}  ${perSecond(chain.verifyMs)}`);
  printRow('  peak RSS', `${(peakRss / 1024 / 1024).toFixed(0)} MB`);
}
