// How benches print: light on purpose (no server imports), so a bench child's peak RSS is the work's own.
import { appendFileSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

export const printRow = (label: string, value: string): void => console.log(`${label.padEnd(48)} ${value}`);
export const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;
/** How a bench prints an aim: `met` or `MISSED`, so a missed aim stands out in `npm run bench`. */
export const verdict = (met: boolean): string => (met ? 'met' : 'MISSED');

/** One figure of the benchmark table (issue 12): a measurement against a baseline measured in the same run. */
export type Figure = {
  /** The bench that measured it, e.g. `ingest`. */
  readonly bench: string;
  /** What was measured and against which baseline, with both values, e.g. `100,000 records: 9.1 s vs raw insert 5.0 s`. */
  readonly measured: string;
  /** The ratio against the same-run baseline as printed (plus RSS or p99 where the aim names them). */
  readonly ratio: string;
  readonly aim: string;
  readonly met: boolean;
};

/** A figure as `npm run bench` collects it: with the 1-minute load average when it was taken. */
export type RecordedFigure = Figure & { readonly load: number };

/**
 * Prints a figure and, under `npm run bench` (BENCH_RESULTS names a file), records it for the summary table
 * and the README (bench/run.ts).
 */
export const recordFigure = (figure: Figure): void => {
  printRow(`  => ${figure.bench}: ${figure.ratio}`, `aim ${figure.aim}: ${verdict(figure.met)}`);
  const file = process.env.BENCH_RESULTS;
  if (file === undefined || file === '') return;
  const recorded: RecordedFigure = { ...figure, load: loadavg()[0] ?? 0 };
  appendFileSync(file, `${JSON.stringify(recorded)}\n`);
};

/**
 * Peak resident set size of this process so far, in MB. On Linux from /proc/self/status VmHWM: getrusage's
 * maxRSS survives exec, so a child spawned by a big parent would report the parent's peak (a bench child
 * inherited ~300 MB that way). Elsewhere getrusage.
 */
export const peakRssMb = (): number => {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm?.[1] !== undefined) return Number(hwm[1]) / 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS / 1024;
};
