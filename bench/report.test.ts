import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// A child with --expose-gc: 256 MB touched then freed, the peak read before and after resetPeakRss.
const child = `
const { peakRssMb, resetPeakRss } = await import(${JSON.stringify(new URL('./report.ts', import.meta.url).href)});
let block = Buffer.alloc(256 * 1024 * 1024, 1);
const held = peakRssMb();
block = null;
globalThis.gc();
await new Promise((resolve) => setTimeout(resolve, 200));
globalThis.gc();
const before = peakRssMb();
const reset = resetPeakRss();
console.log(JSON.stringify({ held, before, reset: reset ?? null, after: peakRssMb() }));
`;

describe('resetPeakRss', () => {
  it('starts a new peak on Linux, so the next size reports its own peak and not the largest so far', () => {
    const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', child], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const { held, before, reset, after } = JSON.parse(run.stdout) as Record<string, number | null>;
    // The kernel keeps the peak only roughly (per-thread counters synced now and then): the freed block still
    // counts in it, give or take a page or two.
    expect(held).toBeGreaterThan(256);
    expect(before).toBeGreaterThan(256);
    if (process.platform !== 'linux') {
      expect(reset).toBeNull();
      expect(after).toBe(before);
      return;
    }
    // The 256 MB are gone from the new peak, which starts at the resident size of the moment (returned).
    expect(after).toBeLessThan((before as number) - 200);
    expect(reset).toBeLessThan((before as number) - 200);
    expect(Math.abs((after as number) - (reset as number))).toBeLessThan(8);
  });
});
