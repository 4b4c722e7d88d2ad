// Per-request authentication cost on SQLite (the desktop app's and a single server's back end), in CPU time per
// call, so a loaded machine skews it less than a throughput figure: an API key's validation (`validateApiKey`,
// on every request that carries a key) and a session JWT's verification (signature + session row + its key's
// row), against the raw driver's look-up of the same key row in the same run.
// Run: node --import tsx bench/auth.bench.ts   (AUTH_BENCH_CALLS=20000 to change the count)
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../core/app.ts';
import { issueSessionJwt, verifySessionJwt } from '../core/identity/api-keys/jwt.ts';
import { createApiKey, validateApiKey } from '../core/identity/api-keys/service.ts';
import { printRow, ratio } from './report.ts';

const calls = Number(process.env.AUTH_BENCH_CALLS ?? 20_000);
const rounds = 5;
const dataDir = mkdtempSync(join(tmpdir(), 'svc-auth-bench-'));
const app = createApp({ dataDir, env: { SVC_SESSION_KEY: 'b'.repeat(43) } });
const key = await createApiKey(app, { tier: 'api', name: 'bench' });
const { token } = await issueSessionJwt(app, { sub: key.id, tier: 'api', origin: key.id, amr: 'apikey' });
const hash = createHash('sha256').update(key.secret).digest('hex');
const raw = app.db.prepare('SELECT * FROM api_keys WHERE secret_hash = ?');

/** Microseconds of CPU (user + system) per call: the median of `rounds` rounds. */
const cpuPerCall = async (work: () => unknown): Promise<number> => {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const before = process.cpuUsage();
    for (let i = 0; i < calls; i++) await work();
    const used = process.cpuUsage(before);
    samples.push((used.user + used.system) / calls);
  }
  return samples.sort((a, b) => a - b)[Math.floor(rounds / 2)] ?? Number.NaN;
};

const baseline = await cpuPerCall(() => raw.get(hash));
const apiKey = await cpuPerCall(() => validateApiKey(app, key.secret));
const session = await cpuPerCall(() => verifySessionJwt(app, token));
console.log(
  `\n# Authentication cost per request on SQLite (CPU µs per call, median of ${rounds} × ${calls}; load ${loadavg()[0]?.toFixed(1)})`,
);
printRow('raw driver: SELECT the key row (baseline)', `${baseline.toFixed(1)} µs`);
printRow('validateApiKey (API key bearer)', `${apiKey.toFixed(1)} µs  (${ratio(apiKey, baseline)} the baseline)`);
printRow('verifySessionJwt (session bearer/cookie)', `${session.toFixed(1)} µs  (${ratio(session, baseline)} the baseline)`);
app.close();
rmSync(dataDir, { recursive: true, force: true });
