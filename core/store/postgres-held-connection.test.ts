import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { freshPostgresUrl, postgresUnavailable } from '../test-support/postgres.ts';
import { connectPostgres, postgresDatabase } from './postgres-database.ts';

const pidRow = z.object({ pid: z.number() });
const countRow = z.object({ n: z.number() });

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/**
 * A connection that the database drops while the app holds it idle (a read snapshot between pages of an export:
 * a server restart, a failover, an administrator's pg_terminate_backend). Without a listener of its own, pg emits
 * the loss as an unhandled 'error' and the process ends; vitest then fails this file with the unhandled error.
 */
describe.skipIf(postgresUnavailable !== undefined)('a held PostgreSQL connection lost while idle', () => {
  it('a snapshot reports UNAVAILABLE, closes quietly, and the pool carries on without the dead connection', async () => {
    const pool = await connectPostgres(await freshPostgresUrl(), { source: 'test database', max: 2 });
    const database = postgresDatabase(pool);
    cleanup.push(() => database.close());
    const snapshot = await database.snapshot();
    cleanup.push(() => snapshot.close());
    const held = await snapshot.one(pidRow, 'SELECT pg_backend_pid() AS pid');

    await database.run('SELECT pg_terminate_backend(?)', [held?.pid ?? 0]);
    const alive = () => database.one(countRow, 'SELECT count(*) AS n FROM pg_stat_activity WHERE pid = ?', [held?.pid ?? 0]);
    await expect.poll(alive, { timeout: 10_000, interval: 50 }).toEqual({ n: 0 });
    // The backend is gone and its socket closed: let the client see it while no query of ours is running.
    await new Promise((resolve) => setTimeout(resolve, 200));

    await expect(snapshot.one(pidRow, 'SELECT pg_backend_pid() AS pid')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await snapshot.close();
    // Both connections of the pool answer: the dead one was destroyed, not handed out again.
    const pids = await Promise.all([1, 2].map(() => database.transaction((tx) => tx.one(pidRow, 'SELECT pg_backend_pid() AS pid'))));
    expect(pids.map((row) => row?.pid)).not.toContain(held?.pid);
  });
});
