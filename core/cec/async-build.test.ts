import { describe, expect, it } from 'vitest';
import { SFCECClient } from './client.ts';
import { seedDays, tempApp } from './test-support.ts';

describe('buildBundleAsync', () => {
  it('builds in a worker thread while the event loop stays responsive', async () => {
    const { app, cleanup } = tempApp();
    try {
      const days = Array.from({ length: 20 }, (_, i) => `2026-05-${String(i + 1).padStart(2, '0')}`);
      seedDays(app, 'big', days, 250); // 30,000 records
      const client = new SFCECClient({ app });
      // The first build starts the app's long-lived worker (TypeScript start-up, paid once per app).
      await client.buildBundleAsync('big', ['2026-05-01', '2026-05-01']);
      const progress: number[] = [];
      let maxLag = 0;
      let last = performance.now();
      const timer = setInterval(() => {
        const now = performance.now();
        maxLag = Math.max(maxLag, now - last - 10);
        last = now;
      }, 10);
      const started = performance.now();
      const result = await client
        .buildBundleAsync('big', ['2026-05-01', '2026-05-20'], undefined, { onProgress: (done) => progress.push(done) })
        .finally(() => clearInterval(timer));
      expect(Object.values(result.record_counts).reduce((a, b) => a + b, 0)).toBe(30_000);
      expect(progress.at(-1)).toBe(30_000);
      // A build on the main thread would stall the loop for about the whole build; in a worker the loop only
      // waits for ordinary scheduling (generous bound: CI machines are loaded).
      const elapsed = performance.now() - started;
      expect(maxLag).toBeLessThan(250);
      expect(maxLag).toBeLessThan(elapsed / 2);
      expect(await client.getBundle(result.bundle_id)).toEqual(result);
      expect((await client.verifyBundle(result.zip_path)).overall_valid).toBe(true);
    } finally {
      cleanup();
    }
  });

  it('refuses an in-memory app, which a worker cannot share', async () => {
    const { createApp } = await import('../app.ts');
    const app = createApp({ dataDir: ':memory:' });
    await expect(new SFCECClient({ app }).buildBundleAsync('p', ['2026-01-01', '2026-01-01'])).rejects.toThrow(/data dir/);
    app.close();
  });
});
