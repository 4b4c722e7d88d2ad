/**
 * Bundle build vs `gzip -6` over the same NDJSON bytes (issue 4 "Measured", issue 12 deliverable 2): aim <= 1.0x
 * time and peak RSS <= 300 MB, at two sizes so the growth (time and RSS) shows.
 *
 *   node --import tsx bench/bundle-build.bench.ts                              # 50k and 1M records (the sizes)
 *   BENCH_RECORDS=50000,200000 node --import tsx bench/bundle-build.bench.ts   # quicker (1M seeds for minutes)
 *
 * Seeding and the NDJSON export happen outside both timers. Up to 200k records the two run in turns three times
 * and their medians are compared (this host's speed drifts within minutes); 1M runs once each. The build runs in a fresh child process, bundled
 * as the product ships (bench/prebuilt-child.ts), so its workers start as prebuilt JavaScript and its peak RSS is
 * the build's alone. gzip reads the exported NDJSON (page-cached) and writes
 * to /dev/null; the build reads SQLite, re-hashes and re-links the chain, deflates and signs.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createApp } from '../core/app.ts';
import { rowToRecord } from '../core/audit/store.ts';
import { evidenceRows } from '../core/audit/evidence-rows.ts';
import { schemaKeys } from '../core/audit/types.ts';
import { SFCECClient } from '../core/cec/client.ts';
import { exampleRange, seedExamples } from '../core/cec/test-support.ts';
import { prebuiltChild } from './prebuilt-child.ts';
import { peakRssMb, printRow, ratio, recordFigure, verdict } from './report.ts';

const env = { SVC_SIGNING_KEY: 'bench-signing-key-0123456789abcdef' };
const projectId = 'bench';

const child = async (dir: string): Promise<void> => {
  const app = createApp({ dataDir: dir, env });
  const started = performance.now();
  const result = await new SFCECClient({ app }).buildBundle(projectId, exampleRange, undefined, { outputDir: join(dir, 'out') });
  const ms = performance.now() - started;
  process.stdout.write(JSON.stringify({ ms, rssMb: peakRssMb(), zip: result.zip_path, bytes: statSync(result.zip_path).size }));
  app.close();
};

const exportNdjson = async (dir: string): Promise<string> => {
  const app = createApp({ dataDir: dir, env });
  const file = join(dir, 'records.ndjson');
  const out = createWriteStream(file);
  for (const schemaKey of schemaKeys) {
    let lines: string[] = [];
    for await (const row of evidenceRows(app.database, { projectId, from: exampleRange[0], to: exampleRange[1], schemaKey })) {
      lines.push(`${JSON.stringify(rowToRecord(row))}\n`);
      if (lines.length >= 1000) {
        if (!out.write(lines.join(''))) await once(out, 'drain');
        lines = [];
      }
    }
    out.write(lines.join(''));
  }
  out.end();
  await once(out, 'finish');
  app.close();
  return file;
};

const measure = async (total: number, childScript: string): Promise<void> => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-bundle-'));
  try {
    const seedStart = performance.now();
    const app = createApp({ dataDir: dir, env });
    await seedExamples(app, projectId, total);
    app.close();
    printRow(
      `bundle-build: seeded ${total} records (load average ${loadavg()[0]?.toFixed(1)})`,
      `${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );
    const ndjson = await exportNdjson(dir);
    // Small sizes take a second a side and this host's speed drifts (docs/decisions.md, "PII over HTTP, fourth
    // pass"): the two sides in turns, three times, median of each. 1M: once each (half a minute a pair).
    const turns = total <= 200_000 ? 3 : 1;
    const gzipRuns: number[] = [];
    const builds: { ms: number; rssMb: number; bytes: number; zip: string }[] = [];
    for (let turn = 0; turn < turns; turn++) {
      const gzipStart = performance.now();
      const gzip = spawnSync('sh', ['-c', `gzip -6 -c '${ndjson}' > /dev/null`]);
      gzipRuns.push(performance.now() - gzipStart);
      if (gzip.status !== 0) throw new Error(`gzip failed: ${gzip.stderr.toString()}`);
      const run = spawnSync(process.execPath, [childScript, '--child', dir], { maxBuffer: 1 << 20 });
      if (run.status !== 0) throw new Error(`build child failed: ${run.stderr.toString()}`);
      builds.push(JSON.parse(run.stdout.toString()));
    }
    const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
    const gzipMs = median(gzipRuns);
    const build = {
      ...(builds[0] as (typeof builds)[number]),
      ms: median(builds.map((b) => b.ms)),
      rssMb: Math.max(...builds.map((b) => b.rssMb)),
    };
    if (turns > 1) {
      printRow(
        `runs in turns (gzip / build)`,
        gzipRuns.map((ms, i) => `${(ms / 1000).toFixed(2)}/${((builds[i]?.ms ?? 0) / 1000).toFixed(2)}`).join('  '),
      );
    }
    // Under `npm run bench`, bundle-verify reuses this bundle instead of seeding the same records again.
    const kept = process.env.BENCH_ZIP_DIR === undefined ? null : join(process.env.BENCH_ZIP_DIR, `${total}.zip`);
    if (kept !== null && !existsSync(kept)) {
      mkdirSync(join(kept, '..'), { recursive: true });
      copyFileSync(build.zip, kept);
    }
    printRow('NDJSON bytes', `${(statSync(ndjson).size / 1e6).toFixed(1)} MB`);
    printRow(`gzip -6 (baseline)${turns > 1 ? ', median' : ''}`, `${(gzipMs / 1000).toFixed(2)} s`);
    printRow(`bundle build${turns > 1 ? ', median' : ''}`, `${(build.ms / 1000).toFixed(2)} s, ZIP ${(build.bytes / 1e6).toFixed(1)} MB`);
    printRow('time ratio build / gzip (aim <= 1.0x)', `${ratio(build.ms, gzipMs)} ${verdict(build.ms <= gzipMs)}`);
    printRow('build peak RSS (aim <= 300 MB)', `${build.rssMb.toFixed(0)} MB ${verdict(build.rssMb <= 300)}`);
    recordFigure({
      bench: 'bundle-build',
      measured: `${total.toLocaleString('en-US')} records: build ${(build.ms / 1000).toFixed(2)} s vs \`gzip -6\` of the same NDJSON ${(gzipMs / 1000).toFixed(2)} s`,
      ratio: `${ratio(build.ms, gzipMs)}, peak RSS ${build.rssMb.toFixed(0)} MB`,
      aim: '<= 1.0x, RSS <= 300 MB',
      met: build.ms <= gzipMs && build.rssMb <= 300,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

const childIndex = process.argv.indexOf('--child');
if (childIndex >= 0) await child(process.argv[childIndex + 1] as string);
else {
  const childScript = await prebuiltChild(import.meta.filename, 'bundle-build');
  for (const size of (process.env.BENCH_RECORDS ?? '50000,1000000').split(',')) await measure(Number(size), childScript);
}
