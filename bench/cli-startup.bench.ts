/**
 * `svc` start-up (issue 12, deliverables 4 and 6): `svc --help` and `svc verify` of a small bundle against `node -e
 * 0` (a bare Node start-up), `npx svc --help` against npx running a no-op bin, and `svc serve` until its status
 * route answers against a trivial Node HTTP server (`node -e` with http.createServer) until it answers, each
 * baseline measured in the same run.
 *
 *   node --import tsx bench/cli-startup.bench.ts
 *   BENCH_RUNS=15 node --import tsx bench/cli-startup.bench.ts
 *
 * It first builds dist/ (`npm run build:cli`, what `npm ci` runs through `prepare`), so bin/svc.js runs the
 * prebuilt CLI, as an installed `npx svc` does. Every figure is the median of BENCH_RUNS real processes (wall
 * time measured here; peak RSS from GNU time, and for the servers from /proc when they first answer). Aims:
 * --help <= 0.3 s; verify start-up <= 0.5 s and <= 100 MB; serve answering <= 1 s (a fresh data dir each run:
 * migrations and key generation included).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../core/app.ts';
import { SFCECClient } from '../core/cec/client.ts';
import { exampleRange, seedExamples } from '../core/cec/test-support.ts';
import { peakRssOfMb, printRow, ratio, recordFigure, verdict } from './report.ts';

const runs = Number(process.env.BENCH_RUNS ?? 7);
const root = join(import.meta.dirname, '..');
const svc = join(root, 'bin', 'svc.js');
const key = 'bench-signing-key-0123456789abcdef';

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/** Median wall seconds and peak RSS (MB) of `command args` (node by default) run in `cwd`, over `runs` processes. */
const measure = (args: string[], command = process.execPath, cwd = root): { seconds: number; rssMb: number } => {
  const seconds: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    const run = spawnSync('/usr/bin/time', ['-f', 'BENCH_RSS %M', command, ...args], { encoding: 'utf8', cwd });
    seconds.push((performance.now() - started) / 1000);
    const match = /BENCH_RSS (\d+)/.exec(run.stderr);
    if (run.status !== 0 || match === null) throw new Error(`${command} ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
    rss.push(Number(match[1]) / 1024);
  }
  return { seconds: median(seconds), rssMb: median(rss) };
};

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

/** A trivial HTTP server, as small as Node allows: the baseline of `svc serve`'s readiness. */
const trivialServer = "require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.argv[1]), '127.0.0.1')";

/**
 * Seconds from spawning `node args` (given a free port) to the first 200 of GET `path`, and the process's peak RSS
 * (MB) by then (NaN where /proc cannot tell).
 */
const readiness = async (args: (port: number) => string[], path: string): Promise<{ seconds: number; rssMb: number }> => {
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args(port), { stdio: 'ignore', env: { ...process.env, SVC_LOG_LEVEL: 'error' } });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`node ${args(port).join(' ')} exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}${path}`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ok) return { seconds: (performance.now() - started) / 1000, rssMb: peakRssOfMb(child.pid as number) ?? Number.NaN };
      if (performance.now() - started > 60_000) throw new Error(`node ${args(port).join(' ')} did not answer within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
  }
};

/** `svc serve` with a fresh data dir (migrations and key generation included) until GET /v1/svc/status is 200. */
const serveReadiness = async (): Promise<{ seconds: number; rssMb: number }> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-serve-'));
  try {
    return await readiness((port) => [svc, 'serve', '--port', String(port), '--data-dir', dataDir], '/v1/svc/status');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
};

const build = spawnSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs')], { encoding: 'utf8' });
if (build.status !== 0) throw new Error(`build-cli failed: ${build.stderr}`);

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-startup-'));
try {
  const records = Number(process.env.BENCH_RECORDS ?? 600);
  const app = createApp({ dataDir: dir, env: { SVC_SIGNING_KEY: key } });
  await seedExamples(app, 'bench', records);
  const zip = (await new SFCECClient({ app }).buildBundle('bench', exampleRange, undefined, { outputDir: join(dir, 'out') })).zip_path;
  app.close();

  printRow('load average (1 min) at start', loadavg()[0]?.toFixed(1) ?? '?');
  const base = measure(['-e', '0']);
  printRow('node -e 0 (baseline)', `${base.seconds.toFixed(3)} s, ${base.rssMb.toFixed(0)} MB`);
  const help = measure([svc, '--help']);
  printRow('svc --help', `${help.seconds.toFixed(3)} s = ${ratio(help.seconds, base.seconds)} baseline, ${help.rssMb.toFixed(0)} MB`);
  printRow('  aim <= 0.3 s', verdict(help.seconds <= 0.3));
  recordFigure({
    bench: 'cli-startup',
    measured: `\`svc --help\` ${help.seconds.toFixed(3)} s vs \`node -e 0\` ${base.seconds.toFixed(3)} s (median of ${runs})`,
    ratio: `${ratio(help.seconds, base.seconds)}, peak RSS ${help.rssMb.toFixed(0)} MB`,
    aim: '<= 0.3 s',
    met: help.seconds <= 0.3,
  });
  // `npx svc` as the README runs it, against npx running a bin that does nothing (a throw-away project whose
  // node_modules/.bin holds `noop`): the difference is svc's own start-up, which the aim is about.
  const noopProject = join(dir, 'npx-noop');
  mkdirSync(join(noopProject, 'node_modules', '.bin'), { recursive: true });
  writeFileSync(join(noopProject, 'package.json'), '{ "name": "npx-noop", "private": true }\n');
  writeFileSync(join(noopProject, 'node_modules', '.bin', 'noop'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  const npxNoop = measure(['noop'], 'npx', noopProject);
  const npxHelp = measure(['svc', '--help'], 'npx');
  const ownPart = npxHelp.seconds - npxNoop.seconds;
  printRow('npx running a no-op bin (baseline)', `${npxNoop.seconds.toFixed(3)} s`);
  printRow('npx svc --help', `${npxHelp.seconds.toFixed(3)} s: ${ownPart.toFixed(3)} s more than the no-op`);
  printRow('  aim <= 0.3 s beyond npx', verdict(ownPart <= 0.3));
  recordFigure({
    bench: 'cli-startup',
    measured: `\`npx svc --help\` ${npxHelp.seconds.toFixed(3)} s vs \`npx\` running a no-op bin ${npxNoop.seconds.toFixed(3)} s`,
    ratio: `${ratio(npxHelp.seconds, npxNoop.seconds)}, ${ownPart.toFixed(3)} s beyond npx, peak RSS ${npxHelp.rssMb.toFixed(0)} MB`,
    aim: '<= 0.3 s beyond npx',
    met: ownPart <= 0.3,
  });
  const verify = measure([svc, 'verify', zip, '--key', key]);
  printRow(
    `svc verify, ${records} records (work included)`,
    `${verify.seconds.toFixed(3)} s = ${ratio(verify.seconds, base.seconds)} baseline, peak ${verify.rssMb.toFixed(0)} MB`,
  );
  printRow('  aim start-up <= 0.5 s, RSS <= 100 MB', verdict(verify.seconds <= 0.5 && verify.rssMb <= 100));
  recordFigure({
    bench: 'cli-startup',
    measured: `\`svc verify\` of a ${records}-record bundle, start-up and work, ${verify.seconds.toFixed(3)} s vs \`node -e 0\` ${base.seconds.toFixed(3)} s`,
    ratio: `${ratio(verify.seconds, base.seconds)}, peak RSS ${verify.rssMb.toFixed(0)} MB`,
    aim: '<= 0.5 s, RSS <= 100 MB',
    met: verify.seconds <= 0.5 && verify.rssMb <= 100,
  });
  const serve: { seconds: number; rssMb: number }[] = [];
  const trivial: { seconds: number; rssMb: number }[] = [];
  // Interleaved, so both sides see the same load.
  for (let i = 0; i < Math.min(runs, 5); i += 1) {
    trivial.push(await readiness((port) => ['-e', trivialServer, String(port)], '/'));
    serve.push(await serveReadiness());
  }
  const ready = median(serve.map((run) => run.seconds));
  const bare = median(trivial.map((run) => run.seconds));
  const readyRss = median(serve.map((run) => run.rssMb));
  printRow(
    'trivial node:http server until it answers (baseline)',
    `${bare.toFixed(3)} s, ${median(trivial.map((run) => run.rssMb)).toFixed(0)} MB`,
  );
  printRow(
    'svc serve until GET /v1/svc/status answers',
    `${ready.toFixed(3)} s = ${ratio(ready, bare)} baseline, ${readyRss.toFixed(0)} MB`,
  );
  printRow('  aim <= 1 s', verdict(ready <= 1));
  recordFigure({
    bench: 'cli-startup',
    measured: `\`svc serve\` (fresh data dir) until GET /v1/svc/status is 200, ${ready.toFixed(3)} s vs a trivial node:http server ${bare.toFixed(3)} s`,
    ratio: `${ratio(ready, bare)}, peak RSS ${readyRss.toFixed(0)} MB`,
    aim: '<= 1 s',
    met: ready <= 1,
  });
  printRow('load average (1 min) at end', loadavg()[0]?.toFixed(1) ?? '?');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
