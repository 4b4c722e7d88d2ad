// How benches print: light on purpose (no server imports), so a bench child's peak RSS is the work's own.
import { readFileSync } from 'node:fs';

export const printRow = (label: string, value: string): void => console.log(`${label.padEnd(48)} ${value}`);
export const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;
/** How a bench prints an aim: `met` or `MISSED`, so a missed aim stands out in `npm run bench`. */
export const verdict = (met: boolean): string => (met ? 'met' : 'MISSED');

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
