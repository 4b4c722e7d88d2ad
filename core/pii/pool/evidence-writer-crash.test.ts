/**
 * kill -9 of `svc serve` (the real CLI, scan workers and evidence writer thread) while clients scan: every scan
 * it answered has its evidence on the chain when the data dir is opened again, the chain is intact, and nothing
 * was recorded that was not asked for.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../../app.ts';
import { verifyChain } from '../../audit/verify.ts';
import { runSvc, startServe, stopServed } from '../../store/serve-process.test-support.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'svc-evidence-crash-'));
afterAll(() => {
  stopServed();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('svc serve killed with SIGKILL mid-scan', () => {
  it('keeps the evidence of every scan it answered, on an intact chain', async () => {
    const created = await runSvc(['keys', 'create', '--tier', 'api', '--name', 'crash', '--json'], {}, dataDir);
    expect(created.code, created.stderr).toBe(0);
    const { secret } = z.object({ secret: z.string() }).parse(JSON.parse(created.stdout));
    const served = await startServe({ SVC_PII_WORKERS: '2' }, dataDir);
    let sent = 0;
    let answered = 0;
    /** Set just before the kill: a request failing after it is the kill's doing, one failing before is a bug. */
    let killed = false;
    const client = async (): Promise<void> => {
      for (;;) {
        sent += 1;
        try {
          const response = await fetch(`${served.origin}/v1/scan/pii`, {
            method: 'POST',
            headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
            body: JSON.stringify({ text: `Call Maria Gonzalez on +1 415-555-0132 (${sent}).`, project_id: 'crash' }),
          });
          if (response.status !== 200) throw new Error(`scan answered ${response.status}: ${await response.text()}`);
          answered += 1;
        } catch (error) {
          if (killed) return;
          throw error;
        }
      }
    };
    const clients = Array.from({ length: 16 }, client);
    while (answered < 300) await new Promise((resolve) => setTimeout(resolve, 10));
    killed = true;
    served.child.kill('SIGKILL');
    await Promise.all(clients);
    const killedAfter = answered;

    const app = createApp({ dataDir, env: {} });
    try {
      const chain = await verifyChain(app, 'crash');
      expect(chain.valid).toBe(true);
      const [row] = await app.database.all(
        z.object({ n: z.number() }),
        "SELECT count(*) AS n FROM audit_records WHERE project_id = 'crash' AND schema_key = 'pii_detections'",
      );
      expect(row?.n).toBeGreaterThanOrEqual(killedAfter);
      expect(row?.n).toBeLessThanOrEqual(sent);
      expect(chain.checked).toBe(row?.n);
    } finally {
      await app.close();
    }
  }, 300_000);
});
