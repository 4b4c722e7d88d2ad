/**
 * `svc verify` vs `sha256sum` + `unzip -p > /dev/null` of the same ZIP (issue 10, deliverable 7): aim <= 1.5x
 * time with start-up included, peak RSS <= 200 MB at any size. Two sizes in one run (default 50k and 1M):
 *
 *   node --import tsx bench/bundle-verify.bench.ts
 *   BENCH_SIZES=50000 node --import tsx bench/bundle-verify.bench.ts
 *
 * Each bundle is built outside the timers. Both sides run as real processes under /usr/bin/time (wall time and
 * peak RSS): the baseline reads the file once for its digest and inflates every entry once; `svc verify` parses
 * the ZIP structure, inflates every entry once, re-hashes every record (JCS + SHA-256), re-links the chain and
 * checks the signatures.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../core/app.ts';
import { SFCECClient } from '../core/cec/client.ts';
import { exampleRange, seedExamples } from '../core/cec/test-support.ts';
import { printRow, ratio } from './support.ts';

const key = 'bench-signing-key-0123456789abcdef';
const svc = join(import.meta.dirname, '..', 'bin', 'svc.js');

/** Wall seconds and peak RSS (MB) of one command, measured by GNU time. */
const timed = (command: string, args: string[]): { seconds: number; rssMb: number; status: number | null } => {
  const run = spawnSync('/usr/bin/time', ['-f', 'BENCH %e %M', command, ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const match = /BENCH ([\d.]+) (\d+)/.exec(run.stderr);
  if (match === null) throw new Error(`no timing for ${command}: ${run.stderr}`);
  return { seconds: Number(match[1]), rssMb: Number(match[2]) / 1024, status: run.status };
};

const measure = async (total: number): Promise<void> => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-verify-'));
  try {
    const app = createApp({ dataDir: dir, env: { SVC_SIGNING_KEY: key } });
    seedExamples(app, 'bench', total);
    const built = await new SFCECClient({ app }).buildBundle('bench', exampleRange, undefined, { outputDir: join(dir, 'out') });
    app.close();
    const zip = built.zip_path;
    const base = timed('sh', ['-c', `sha256sum '${zip}' > /dev/null && unzip -p '${zip}' > /dev/null`]);
    if (base.status !== 0) throw new Error('baseline failed');
    const verify = timed(process.execPath, [svc, 'verify', zip, '--key', key]);
    if (verify.status !== 0) throw new Error('svc verify did not answer VALID');
    printRow(`records / ZIP size`, `${total} / ${(statSync(zip).size / 1e6).toFixed(1)} MB`);
    printRow('  sha256sum + unzip -p (baseline)', `${base.seconds.toFixed(2)} s`);
    printRow('  svc verify (process, start-up included)', `${verify.seconds.toFixed(2)} s`);
    printRow('  time ratio verify / baseline (aim <= 1.5x)', ratio(verify.seconds, base.seconds));
    printRow('  svc verify peak RSS (aim <= 200 MB)', `${verify.rssMb.toFixed(0)} MB`);
    const startup = timed(process.execPath, [svc, 'verify', '--help']);
    printRow('  of which CLI start-up (svc verify --help)', `${startup.seconds.toFixed(2)} s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

for (const size of (process.env.BENCH_SIZES ?? '50000,1000000').split(',')) await measure(Number(size));
