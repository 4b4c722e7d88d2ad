import { afterEach, describe, expect, it } from 'vitest';
import { exampleEvidence } from '../audit/examples.ts';
import { freshPostgresUrl, postgresUnavailable } from '../test-support/postgres.ts';
import { type Served, sharedKeysEnv, startServe, stopServed } from './serve-process.test-support.ts';

afterEach(stopServed);

/** Starts `svc serve` on `databaseUrl` with the keys instances on a database must share. */
const serve = (databaseUrl: string): Promise<Served> => startServe({ SVC_DATABASE_URL: databaseUrl, ...sharedKeysEnv });

/**
 * The real `svc serve` on PostgreSQL, end to end, used as an operator and a browser would. Skipped only where no
 * server can be started (test-support/postgres.ts prints why).
 */
describe.skipIf(postgresUnavailable !== undefined)('svc serve on PostgreSQL', () => {
  it('starts, logs in with its one-time link, appends evidence over HTTP and reads it back, then stops cleanly', async () => {
    const { child, origin, token } = await serve(await freshPostgresUrl());
    const ready = await fetch(`${origin}/v1/svc/ready`);
    expect(await ready.json()).toEqual({ status: 'ok', database: 'postgres' });

    const login = await fetch(`${origin}/login?token=${token}`, { redirect: 'manual' });
    expect(login.status).toBe(303);
    const cookie = /svc_session=[^;]+/.exec(login.headers.get('set-cookie') ?? '')?.[0];
    expect(cookie).toBeDefined();
    const session = { cookie: cookie ?? '', origin };

    const records = [exampleEvidence(0, 'flip'), exampleEvidence(1, 'flip')];
    const appended = await fetch(`${origin}/v1/audit/records`, {
      method: 'POST',
      headers: { ...session, 'content-type': 'application/json' },
      body: JSON.stringify(records),
    });
    expect(appended.status).toBe(201);
    expect(await appended.json()).toMatchObject({ imported: 2, projects: [{ project_id: 'flip', first_seq: 1, last_seq: 2 }] });

    const read = await fetch(`${origin}/v1/audit/records?project_id=flip`, { headers: session });
    expect(read.status).toBe(200);
    const body = (await read.json()) as { records: { record_id: string; seq: number }[] };
    expect(body.records.map((record) => [record.seq, record.record_id])).toEqual([
      [1, 'flip-0'],
      [2, 'flip-1'],
    ]);
    const verified = await fetch(`${origin}/v1/audit/chain/flip/verify`, { headers: session });
    expect(await verified.json()).toMatchObject({ valid: true, checked: 2 });

    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 240_000);
});
