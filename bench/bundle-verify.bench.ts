/**
 * Bundle verify vs `sha256sum` + `unzip -p > /dev/null` of the same ZIP (issue 4, "Measured"): aim <= 1.5x
 * time, peak RSS <= 200 MB whatever the size.
 *
 *   node --import tsx bench/bundle-verify.bench.ts                     # 50k records
 *   BENCH_RECORDS=1000000 node --import tsx bench/bundle-verify.bench.ts
 *
 * The bundle is built outside the timers; verification runs in a fresh child process (its own peak RSS). The
 * baseline reads the file once for its digest and inflates every entry once; our verify inflates every entry
 * once too, and on top re-hashes every record (JCS + SHA-256), re-links the chain and checks the signatures.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../core/app.ts';
import { SFCECClient } from '../core/cec/client.ts';
import { exampleRange, seedExamples } from '../core/cec/test-support.ts';
import { peakRssMb, printRow, ratio } from './support.ts';

const env = { SVC_SIGNING_KEY: 'bench-signing-key-0123456789abcdef' };

const child = async (dir: string, zip: string): Promise<void> => {
  const app = createApp({ dataDir: dir, env });
  const started = performance.now();
  const result = await new SFCECClient({ app }).verifyBundle(zip);
  const ms = performance.now() - started;
  if (!result.overall_valid) throw new Error(`bundle did not verify: ${result.errors.join('; ')}`);
  process.stdout.write(JSON.stringify({ ms, rssMb: peakRssMb() }));
  app.close();
};

const parent = async (): Promise<void> => {
  const total = Number(process.env.BENCH_RECORDS ?? 50_000);
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-verify-'));
  try {
    const app = createApp({ dataDir: dir, env });
    seedExamples(app, 'bench', total);
    const built = await new SFCECClient({ app }).buildBundle('bench', exampleRange, undefined, { outputDir: join(dir, 'out') });
    app.close();
    const zip = built.zip_path;
    const baseStart = performance.now();
    const base = spawnSync('sh', ['-c', `sha256sum '${zip}' > /dev/null && unzip -p '${zip}' > /dev/null`]);
    const baseMs = performance.now() - baseStart;
    if (base.status !== 0) throw new Error(`baseline failed: ${base.stderr.toString()}`);
    const run = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--child', dir, zip], { maxBuffer: 1 << 20 });
    if (run.status !== 0) throw new Error(`verify child failed: ${run.stderr.toString()}`);
    const verify = JSON.parse(run.stdout.toString()) as { ms: number; rssMb: number };
    printRow(`records / ZIP size`, `${total} / ${(statSync(zip).size / 1e6).toFixed(1)} MB`);
    printRow('sha256sum + unzip -p (baseline)', `${(baseMs / 1000).toFixed(2)} s`);
    printRow('verifyBundle', `${(verify.ms / 1000).toFixed(2)} s`);
    printRow('time ratio verify / baseline (aim <= 1.5x)', ratio(verify.ms, baseMs));
    printRow('verify peak RSS (aim <= 200 MB)', `${verify.rssMb.toFixed(0)} MB`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

const childIndex = process.argv.indexOf('--child');
if (childIndex >= 0) await child(process.argv[childIndex + 1] as string, process.argv[childIndex + 2] as string);
else await parent();
