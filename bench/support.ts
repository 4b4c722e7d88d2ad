import autocannon from 'autocannon';

export type LoadResult = { readonly requestsPerSecond: number; readonly p50Ms: number; readonly p99Ms: number; readonly errors: number };

/** Drives one URL with autocannon (loopback only, bounded duration) and returns throughput and latency. */
export const load = async (
  url: string,
  options: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; seconds?: number; connections?: number } = {},
): Promise<LoadResult> => {
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
  };
};

export const printRow = (label: string, value: string): void => console.log(`${label.padEnd(48)} ${value}`);
export const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;

/** Peak resident set size of this process so far, in MB. */
export const peakRssMb = (): number => process.resourceUsage().maxRSS / 1024;
