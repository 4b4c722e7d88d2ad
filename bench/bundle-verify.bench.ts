/**
 * `svc verify` vs `sha256sum` + `unzip -p > /dev/null` of the same ZIP (issue 10, deliverable 7): aim <= 1.5x
 * time with start-up included, peak RSS <= 200 MB at any size. Both sizes in one run:
 *
 *   node --import tsx bench/bundle-verify.bench.ts                            # 50k records (npm run bench)
 *   BENCH_SIZES=50000,1000000 node --import tsx bench/bundle-verify.bench.ts  # the sizes (1M: minutes to seed)
 *
 * Each bundle is built once, outside the timers, in a temp dir the run deletes at the end (or, with
 * BENCH_ZIP_DIR=DIR, kept as DIR/<records>.zip and reused by later runs: seeding 1M records takes minutes). Every side runs as a
 * real process under /usr/bin/time (wall time, peak RSS), interleaved, BENCH_REPEAT times (default 3), and the
 * median is reported: the baseline reads the file once for its digest and inflates every entry once; `svc
 * verify` parses the ZIP structure, inflates every entry once, re-hashes every record (RFC 8785 + SHA-256),
 * re-links the chain and checks the signatures. The same verification is also timed in-process (a child that
 * times only verifyBundleFile), so the share of CLI start-up is visible.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../core/app.ts';
import { SFCECClient } from '../core/cec/client.ts';
import { exampleRange, seedExamples } from '../core/cec/test-support.ts';
import { verifyBundleFile } from '../core/cec/verify.ts';
import { prebuiltChild } from './prebuilt-child.ts';
import { peakRssMb, printRow, ratio, recordFigure, verdict } from './report.ts';

const key = 'bench-signing-key-0123456789abcdef';
const svc = join(import.meta.dirname, '..', 'bin', 'svc.js');
const repeat = Number(process.env.BENCH_REPEAT ?? 3);

type Run = { seconds: number; rssMb: number };

/** Wall seconds and peak RSS (MB) of one command, measured by GNU time; throws unless it exits `expect`. */
const timed = (command: string, args: string[], expect = 0): Run & { stdout: string } => {
  const run = spawnSync('/usr/bin/time', ['-f', 'BENCH %e %M', command, ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const match = /BENCH ([\d.]+) (\d+)/.exec(run.stderr);
  if (match === null) throw new Error(`no timing for ${command}: ${run.stderr}`);
  if (run.status !== expect) throw new Error(`${command} ${args.join(' ')} exited ${run.status}: ${run.stderr.slice(0, 500)}`);
  return { seconds: Number(match[1]), rssMb: Number(match[2]) / 1024, stdout: run.stdout };
};

const median = (runs: Run[], pick: (run: Run) => number): number => {
  const sorted = runs.map(pick).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/** Child mode: times verifyBundleFile alone (modules already loaded) and prints seconds and peak RSS. */
const inProcess = async (zip: string): Promise<void> => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-verify-child-'));
  const app = createApp({ dataDir: dir, env: { SVC_SIGNING_KEY: key } });
  try {
    const started = performance.now();
    const result = await verifyBundleFile(app, zip, { hmacKey: key });
    const seconds = (performance.now() - started) / 1000;
    if (!result.overall_valid) throw new Error(`in-process verify failed: ${result.errors.join('; ')}`);
    console.log(`INPROC ${seconds} ${peakRssMb()}`);
  } finally {
    app.close();
    rmSync(dir, { recursive: true, force: true });
  }
};

const build = async (dir: string, total: number): Promise<string> => {
  const cached = process.env.BENCH_ZIP_DIR === undefined ? null : join(process.env.BENCH_ZIP_DIR, `${total}.zip`);
  if (cached !== null && existsSync(cached)) return cached;
  const app = createApp({ dataDir: join(dir, 'data'), env: { SVC_SIGNING_KEY: key } });
  try {
    await seedExamples(app, 'bench', total);
    const built = await new SFCECClient({ app }).buildBundle('bench', exampleRange, undefined, { outputDir: join(dir, 'out') });
    if (cached === null) return built.zip_path;
    mkdirSync(join(cached, '..'), { recursive: true });
    copyFileSync(built.zip_path, cached);
    return cached;
  } finally {
    app.close();
  }
};

const measure = async (dir: string, total: number, childScript: string): Promise<void> => {
  const zip = await build(join(dir, String(total)), total);
  const base: Run[] = [];
  const verify: Run[] = [];
  const inproc: Run[] = [];
  for (let i = 0; i < repeat; i += 1) {
    base.push(timed('sh', ['-c', `sha256sum '${zip}' > /dev/null && unzip -p '${zip}' > /dev/null`]));
    verify.push(timed(process.execPath, [svc, 'verify', zip, '--key', key]));
    const child = timed(process.execPath, [childScript, '--in-process', zip]);
    const reported = /INPROC ([\d.]+) ([\d.]+)/.exec(child.stdout);
    if (reported === null) throw new Error(`in-process child printed no figures: ${child.stdout}`);
    inproc.push({ seconds: Number(reported[1]), rssMb: Number(reported[2]) });
  }
  // A missing file: `svc verify` loads what it loads for a real bundle, then exits 2 without verifying.
  const startup = timed(process.execPath, [svc, 'verify', join(dir, 'missing.zip')], 2);
  const baseSeconds = median(base, (run) => run.seconds);
  const verifySeconds = median(verify, (run) => run.seconds);
  const inprocSeconds = median(inproc, (run) => run.seconds);
  const peak = Math.max(...verify.map((run) => run.rssMb));
  printRow('records / ZIP size', `${total} / ${(statSync(zip).size / 1e6).toFixed(1)} MB (median of ${repeat})`);
  printRow('  sha256sum + unzip -p (baseline)', `${baseSeconds.toFixed(2)} s`);
  printRow('  svc verify (process, start-up included)', `${verifySeconds.toFixed(2)} s`);
  printRow(
    '  time ratio verify / baseline (aim <= 1.5x)',
    `${ratio(verifySeconds, baseSeconds)} ${verdict(verifySeconds <= 1.5 * baseSeconds)}`,
  );
  printRow('  svc verify peak RSS (aim <= 200 MB)', `${peak.toFixed(0)} MB ${verdict(peak <= 200)}`);
  recordFigure({
    bench: 'bundle-verify',
    measured: `${total.toLocaleString('en-US')} records: \`svc verify\` ${verifySeconds.toFixed(2)} s vs \`sha256sum\` + \`unzip -p\` ${baseSeconds.toFixed(2)} s`,
    ratio: `${ratio(verifySeconds, baseSeconds)}, peak RSS ${peak.toFixed(0)} MB`,
    aim: '<= 1.5x, RSS <= 200 MB',
    met: verifySeconds <= 1.5 * baseSeconds && peak <= 200,
  });
  printRow('  verification in-process (no start-up)', `${inprocSeconds.toFixed(2)} s = ${ratio(inprocSeconds, baseSeconds)} of baseline`);
  printRow('  in-process peak RSS', `${Math.max(...inproc.map((run) => run.rssMb)).toFixed(0)} MB`);
  printRow('  CLI start-up (svc verify of a missing file)', `${startup.seconds.toFixed(2)} s, ${startup.rssMb.toFixed(0)} MB`);
};

if (process.argv[2] === '--in-process') await inProcess(process.argv[3] as string);
else {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-verify-'));
  try {
    printRow(
      'load average (1, 5, 15 min)',
      loadavg()
        .map((load) => load.toFixed(1))
        .join(', '),
    );
    // `svc verify` as installed: bin/svc.js runs dist/ only while it is up to date with the sources.
    const built = spawnSync(process.execPath, [join(import.meta.dirname, '..', 'scripts', 'build-cli.mjs')], { encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`build-cli failed: ${built.stderr}`);
    const childScript = await prebuiltChild(import.meta.filename, 'bundle-verify');
    for (const size of (process.env.BENCH_SIZES ?? '50000').split(',')) await measure(dir, Number(size), childScript);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
