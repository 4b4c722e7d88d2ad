// How benches print: light on purpose (no server imports), so a bench child's peak RSS is the work's own.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
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

/** Peak RSS (VmHWM) of a process so far in MB, from /proc (Linux); undefined elsewhere, or once it is gone. */
export const peakRssOfMb = (pid: number | 'self'): number | undefined => {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return hwm?.[1] === undefined ? undefined : Number(hwm[1]) / 1024;
  } catch {
    return undefined;
  }
};

/**
 * Peak resident set size of this process so far, in MB. On Linux from /proc/self/status VmHWM: getrusage's
 * maxRSS survives exec, so a child spawned by a big parent would report the parent's peak (a bench child
 * inherited ~300 MB that way). Elsewhere getrusage.
 */
export const peakRssMb = (): number => peakRssOfMb('self') ?? process.resourceUsage().maxRSS / 1024;

/**
 * Starts a new peak for peakRssMb, so that a bench measuring two sizes in one process reports each size's own
 * peak rather than the largest so far. On Linux, writing 5 to /proc/self/clear_refs sets VmHWM to the resident
 * size of the moment, which is returned (MB): memory the process still holds from an earlier size counts from
 * there, so a bench prints it beside the peak. Undefined where that is not possible (not Linux): peakRssMb then
 * keeps the process's peak so far.
 */
export const resetPeakRss = (): number | undefined => {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    return undefined;
  }
  return peakRssMb();
};

/** `peak RSS N MB`, with the resident size at the reset when there was one (`resetPeakRss`). */
export const peakRssSince = (start: number | undefined): string =>
  `peak RSS ${peakRssMb().toFixed(0)} MB${start === undefined ? '' : ` (${start.toFixed(0)} MB at its start)`}`;
