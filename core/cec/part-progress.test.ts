/** PartProgress (segment-split.ts): the building thread's view of how far the segment worker wrote each part. */
import { describe, expect, it } from 'vitest';
import { PartProgress } from './segment-split.ts';

describe('PartProgress', () => {
  it('wakes every waiter at the next report, and at once when settled', async () => {
    const progress = new PartProgress();
    expect(progress.size('witnesses')).toBe(0);
    const woken: string[] = [];
    const a = progress.changed().then(() => woken.push('a'));
    const b = progress.changed().then(() => woken.push('b'));
    await Promise.resolve();
    expect(woken).toEqual([]);
    progress.report('score_records', 1 << 20);
    await Promise.all([a, b]);
    expect(woken).toEqual(['a', 'b']);
    expect(progress.size('score_records')).toBe(1 << 20);

    const c = progress.changed();
    progress.settle();
    await c;
    expect(progress.settled).toBe(true);
    await progress.changed(); // settled: no further report will come, so waiting must not hang
  });
});
