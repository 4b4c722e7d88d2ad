/**
 * HTTP throughput of `POST /v1/scan/pii` with 1 KB texts (names included, full default scan, evidence written to
 * a real SQLite file) against a trivial route on the same server and the same auth hooks, measured with
 * autocannon in one run. Aim (issue 3): scan requests/s >= 0.3x the trivial route's.
 * Run: node --import tsx bench/pii-http.bench.ts   (PII_HTTP_SECONDS=10 PII_HTTP_CONNECTIONS=20 to scale up)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { createApp } from '../core/app.ts';
import { DEFAULT_EN_PATTERN_ENTITIES } from '../core/pii/registry.ts';
import { startBenchServer } from './support.ts';
import { createApiKey } from '../core/identity/api-keys/service.ts';

/** The part of autocannon's API this bench uses (the package ships no types). */
type CannonOptions = {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
};
type CannonResult = {
  requests: { average: number };
  latency: { p50: number; p99: number };
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
};
const autocannon = createRequire(import.meta.url)('autocannon') as (options: CannonOptions) => Promise<CannonResult>;

const seconds = Number(process.env.PII_HTTP_SECONDS ?? 5);
const connections = Number(process.env.PII_HTTP_CONNECTIONS ?? 10);

const dataDir = mkdtempSync(join(tmpdir(), 'svc-pii-http-'));
const app = createApp({ dataDir, env: {} });
const { server, origin } = await startBenchServer(app, '/bench/trivial');
const key = createApiKey(app, { tier: 'api', scopes: [], name: 'bench' }).secret;
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

const sentence =
  'Maria Gonzalez from Madrid asked on Monday whether the invoice was paid; reply to maria.gonzalez@example.com or call +1 415-555-0132. ';
const filler = 'The quarterly report was reviewed by the committee and approved without any changes to the budget. ';
let text = sentence;
while (text.length < 1024) text += filler;
const body = JSON.stringify({ text: text.slice(0, 1024), language: 'en' });
/** The same scan without the NER types, to show what name recognition costs. */
const patternTypes = DEFAULT_EN_PATTERN_ENTITIES;
const patternsBody = JSON.stringify({ text: text.slice(0, 1024), language: 'en', entities: patternTypes });

const run = async (title: string, options: Omit<CannonOptions, 'connections' | 'duration'>): Promise<number> => {
  const result = await autocannon({ connections, duration: seconds, ...options });
  const ok = result['2xx'];
  const bad = result.non2xx + result.errors + result.timeouts;
  console.log(
    `  ${title.padEnd(34)} ${result.requests.average.toFixed(0).padStart(7)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  (${ok} ok, ${bad} failed)`,
  );
  if (bad > 0) throw new Error(`${title}: ${bad} requests failed`);
  return result.requests.average;
};

try {
  console.log(`HTTP throughput, ${connections} connections, ${seconds} s per route`);
  const trivial = await run('GET /bench/trivial (baseline)', { url: `${origin}/bench/trivial`, headers });
  const scan = await run('POST /v1/scan/pii (1 KB, names)', { url: `${origin}/v1/scan/pii`, method: 'POST', headers, body });
  const patterns = await run('POST /v1/scan/pii (1 KB, no NER)', {
    url: `${origin}/v1/scan/pii`,
    method: 'POST',
    headers,
    body: patternsBody,
  });
  console.log(
    `  scan / trivial ratio: ${(scan / trivial).toFixed(2)}x (aim >= 0.3x: ${scan / trivial >= 0.3 ? 'met' : 'NOT met'}); without NER ${(patterns / trivial).toFixed(2)}x`,
  );
} finally {
  await server.close();
  app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
