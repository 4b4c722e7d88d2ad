import autocannon from 'autocannon';
import type { FastifyInstance } from 'fastify';
import type { App } from '../core/app.ts';
import { buildServer } from '../core/http/server.ts';

export type LoadResult = {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly errors: number;
  /** Requests answered, and the CPU time this process (every thread, autocannon's included) spent per request. */
  readonly requests: number;
  readonly cpuMsPerRequest: number;
};

const cpuMsPer = (used: NodeJS.CpuUsage, requests: number): number => (used.user + used.system) / 1000 / Math.max(1, requests);

/** Drives one URL with autocannon (loopback only, bounded duration) and returns throughput and latency. */
export const load = async (
  url: string,
  options: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; seconds?: number; connections?: number } = {},
): Promise<LoadResult> => {
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({
    url,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.body === undefined ? {} : { body: options.body }),
    duration: options.seconds ?? Number(process.env.BENCH_SECONDS ?? 5),
    connections: options.connections ?? 10,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
    requests: result.requests.total,
    cpuMsPerRequest: cpuMsPer(process.cpuUsage(cpuBefore), result.requests.total),
  };
};

/** One route's rounds as one result: requests/s over all of them, the worst round's latencies, CPU per request. */
const combine = (rounds: readonly LoadResult[]): LoadResult => {
  const requests = rounds.reduce((sum, round) => sum + round.requests, 0);
  const seconds = rounds.reduce((sum, round) => sum + round.requests / Math.max(round.requestsPerSecond, 1e-9), 0);
  return {
    requestsPerSecond: requests / Math.max(seconds, 1e-9),
    p50Ms: Math.max(...rounds.map((round) => round.p50Ms)),
    p99Ms: Math.max(...rounds.map((round) => round.p99Ms)),
    errors: rounds.reduce((sum, round) => sum + round.errors, 0),
    requests,
    cpuMsPerRequest: rounds.reduce((sum, round) => sum + round.cpuMsPerRequest * round.requests, 0) / Math.max(requests, 1),
  };
};

/**
 * Runs each of `runs` (one `load` each) in turn, `rounds` times over, and combines each one's rounds. This host's
 * speed drifts within minutes (docs/decisions.md, "PII over HTTP, fourth pass"): taking turns, a route and its
 * baseline see the same drift, as the ingest bench's two sides do batch by batch.
 */
export const inTurns = async (runs: readonly (() => Promise<LoadResult>)[], rounds: number): Promise<LoadResult[]> => {
  const results: LoadResult[][] = runs.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [index, run] of runs.entries()) results[index]?.push(await run());
  }
  return results.map(combine);
};

export { peakRssMb, printRow, ratio, verdict } from './report.ts';

/**
 * The real server on a free loopback port, plus a trivial route at `baselinePath` that answers without auth,
 * dispatch or validation: the same-run baseline every HTTP bench compares against.
 */
export const startBenchServer = async (app: App, baselinePath = '/bench/bare'): Promise<{ server: FastifyInstance; origin: string }> => {
  let origin = 'http://127.0.0.1:0';
  const server = await buildServer({ app, origin: () => origin });
  server.get(baselinePath, async () => ({ pong: true }));
  await server.listen({ host: '127.0.0.1', port: 0 });
  const address = server.server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  return { server, origin };
};
