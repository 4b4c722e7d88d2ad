import { describe, expect, it } from 'vitest';
import { inTurns, type LoadResult } from './support.ts';

const round = (requestsPerSecond: number, seconds: number, p99Ms: number, cpuMsPerRequest: number): LoadResult => ({
  requestsPerSecond,
  p50Ms: p99Ms / 2,
  p99Ms,
  errors: 0,
  requests: requestsPerSecond * seconds,
  cpuMsPerRequest,
});

describe('inTurns', () => {
  it('runs the routes in turns and combines each route over its rounds', async () => {
    const order: string[] = [];
    const trivial = [round(1000, 2, 5, 0.1), round(500, 2, 9, 0.2)];
    const scan = [round(300, 2, 20, 0.5), round(100, 2, 40, 1)];
    const runOf = (name: string, rounds: LoadResult[]) => async () => {
      order.push(name);
      return rounds[order.filter((seen) => seen === name).length - 1] as LoadResult;
    };
    const [a, b] = await inTurns([runOf('trivial', trivial), runOf('scan', scan)], 2);
    expect(order).toEqual(['trivial', 'scan', 'trivial', 'scan']);
    // 3,000 requests in 4 s; the worst round's latency; CPU weighted by requests.
    expect(a).toMatchObject({ requestsPerSecond: 750, requests: 3000, p99Ms: 9, p50Ms: 4.5 });
    expect(a?.cpuMsPerRequest).toBeCloseTo((2000 * 0.1 + 1000 * 0.2) / 3000);
    expect(b).toMatchObject({ requestsPerSecond: 200, requests: 800, p99Ms: 40 });
  });
});
