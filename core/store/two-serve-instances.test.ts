import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, openApp } from '../app.ts';
import { expectOneTruth, type Instance, ingest } from '../audit/ingest-clients.test-support.ts';
import { buildResponse, idpMetadataXml, makeTestIdp, signElement, toBase64 } from '../identity/saml/test/idp.ts';
import { freshPostgresUrl, postgresUnavailable } from '../test-support/postgres.ts';
import { runSvc, type Served, sharedKeysEnv, startServe, stopServed } from './serve-process.test-support.ts';

/**
 * Issue 15's two-instance test, with the real parts: two `svc serve` processes (the CLI entry, each with its own
 * data dir and port) on one PostgreSQL database, sharing SVC_SESSION_KEY and SVC_SIGNING_KEY as a team server's
 * instances do. A third view of the database (`openApp` in this process) checks what they stored.
 */
describe.skipIf(postgresUnavailable !== undefined)('two svc serve processes on one PostgreSQL database', () => {
  let env: NodeJS.ProcessEnv;
  let first: Served;
  let second: Served;
  /** Each instance as an API client sees it, with one admin key made by `svc keys` against the database. */
  let instances: [Instance, Instance];
  let database: App;

  beforeAll(async () => {
    env = { SVC_DATABASE_URL: await freshPostgresUrl(), ...sharedKeysEnv };
    // Started together: both run the migrations, which must apply once (an advisory lock queues the second).
    [first, second] = await Promise.all([startServe(env), startServe(env)]);
    const created = await runSvc(['keys', 'create', '--tier', 'admin', '--name', 'two instances', '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    const { secret } = z.object({ secret: z.string() }).parse(JSON.parse(created.stdout));
    instances = [
      { url: first.origin, key: secret },
      { url: second.origin, key: secret },
    ];
    database = await openApp({ dataDir: ':memory:', env });
  }, 300_000);

  afterAll(async () => {
    await database?.close();
    stopServed();
  });

  /** An admin op over HTTP on one instance; its `value`. */
  const op = async (instance: Instance, name: string, input: unknown): Promise<unknown> => {
    const response = await fetch(`${instance.url}/api/ops/${name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${instance.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    expect(response.status, name).toBe(200);
    return ((await response.json()) as { value: unknown }).value;
  };

  /** GET /v1/audit/chain/P/verify on one instance. */
  const verifyOver = async (instance: Instance, project: string): Promise<unknown> =>
    (await fetch(`${instance.url}/v1/audit/chain/${project}/verify`, { headers: { authorization: `Bearer ${instance.key}` } })).json();

  it('honours on one instance the browser session and one-time login link of the other', async () => {
    const login = await fetch(`${first.origin}/login?token=${first.token}`, { redirect: 'manual' });
    expect(login.status).toBe(303);
    const cookie = /svc_session=[^;]+/.exec(login.headers.get('set-cookie') ?? '')?.[0] ?? '';
    const session = await fetch(`${second.origin}/auth/session`, { headers: { cookie } });
    expect(await session.json()).toMatchObject({ authenticated: true, tier: 'admin' });
    // The link was used up on the first instance: the second refuses it too.
    const again = await fetch(`${second.origin}/login?token=${first.token}`, { redirect: 'manual' });
    expect(again.status).not.toBe(303);
    expect(again.headers.get('set-cookie') ?? '').not.toContain('svc_session=ey');
  }, 120_000);

  it('takes thousands of concurrent appends to one project through both: each acknowledged record once, seq 1..n, a valid chain', async () => {
    const { acknowledged, byInstance, failed } = await ingest(instances, { project: 'shared', requests: 1000, size: 3, clients: 4 });
    expect(failed).toBe(0);
    expect(acknowledged).toHaveLength(3000);
    expect(byInstance.every((records) => records > 0)).toBe(true);
    expect(await expectOneTruth(database, 'shared', acknowledged)).toBe(3000);
    for (const instance of instances) expect(await verifyOver(instance, 'shared')).toMatchObject({ valid: true, checked: 3000 });
  }, 600_000);

  it('refuses on one instance, as a replay, a signed SAML Response the other accepted', async () => {
    const idp = makeTestIdp('idp');
    // Both instances stand behind one public origin (the proxy's), to which the IdP addresses its Responses.
    await op(instances[0], 'identity.samlSetConfig', {
      idp_metadata_xml: idpMetadataXml([idp.cert]),
      options: { spBaseUrl: 'https://sp.example.test', allowIdpInitiated: true },
    });
    // The IdP metadata is a setting: the second instance reloads it when the first announces the change.
    const trusted = z.object({ idp: z.object({ trusted_cert_count: z.number() }) });
    await expect
      .poll(async () => trusted.parse(await op(instances[1], 'identity.samlGetConfig', {})).idp.trusted_cert_count, { timeout: 60_000 })
      .toBe(1);

    const response = toBase64(signElement(buildResponse(new Date(), { assertionId: '_two-instances' }), '_two-instances', idp));
    const acs = (instance: Instance) =>
      fetch(`${instance.url}/saml/acs`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.example.test', accept: 'application/json' },
        body: new URLSearchParams({ SAMLResponse: response }).toString(),
      });
    const accepted = await acs(instances[0]);
    expect(accepted.status).toBe(303);
    const completion = accepted.headers.get('location') ?? '';
    expect(completion).toMatch(/^\/saml\/complete\?handle=[\w-]{43}$/);

    const replayed = await acs(instances[1]);
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toMatchObject({ check: 'replay' });

    // The login the first instance accepted completes on the second (the handle is a shared one-time row).
    const completed = await fetch(`${instances[1].url}${completion}`, { headers: { accept: 'application/json' } });
    expect(completed.status).toBe(200);
    expect(await completed.json()).toMatchObject({ subject: 'alice@example.org' });
  }, 180_000);

  // Last: it kills the second instance.
  it('loses nothing acknowledged when one instance is killed with SIGKILL mid-ingest; the other keeps serving', async () => {
    const [survivor, victim] = instances;
    const count = async (): Promise<number> =>
      (await database.database.one(z.object({ n: z.number() }), "SELECT count(*) AS n FROM audit_records WHERE project_id = 'killed'"))
        ?.n ?? 0;
    const sleep = () => new Promise((resolve) => setTimeout(resolve, 100));
    let killed = false;
    let survivorDone = false;
    const running = ingest(instances, {
      project: 'killed',
      requests: 1_000_000,
      size: 5,
      clients: 4,
      stop: (instance) => (instance === victim ? killed : survivorDone),
    });
    // Kill it while both have requests in flight, after they have stored a fair number.
    while ((await count()) < 1500) await sleep();
    const exited = new Promise<NodeJS.Signals | null>((resolve) => second.child.once('exit', (_code, signal) => resolve(signal)));
    second.child.kill('SIGKILL');
    killed = true;
    expect(await exited).toBe('SIGKILL');
    // The survivor goes on taking appends after the kill (the victim's lock and transaction died with its connections).
    const atKill = await count();
    while ((await count()) < atKill + 500) await sleep();
    survivorDone = true;
    const { acknowledged, byInstance } = await running;

    expect(acknowledged.length).toBeGreaterThanOrEqual(1500);
    // Both took part: the victim acknowledged batches before it died, the survivor before and after.
    expect(byInstance.every((records) => records > 0)).toBe(true);
    const stored = await expectOneTruth(database, 'killed', acknowledged);
    expect(await verifyOver(survivor, 'killed')).toMatchObject({ valid: true, checked: stored });
    await expect(fetch(`${victim.url}/v1/svc/ready`)).rejects.toThrow();
  }, 600_000);
});

describe.skipIf(postgresUnavailable !== undefined)('svc serve on PostgreSQL without the shared keys', () => {
  afterAll(stopServed);

  it('refuses to start in one line naming the missing or weak key, exit 2, no stack trace', async () => {
    const url = await freshPostgresUrl();
    const none = await runSvc(['serve', '--port', '0'], { SVC_DATABASE_URL: url });
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      'svc serve: SVC_SESSION_KEY and SVC_SIGNING_KEY: required with SVC_DATABASE_URL, the same value on every instance (at least 16 random characters, e.g. `openssl rand -base64 32`), set in the environment\n',
    );
    const weak = await runSvc(['serve', '--port', '0'], {
      SVC_DATABASE_URL: url,
      SVC_SESSION_KEY: 'changeme',
      SVC_SIGNING_KEY: sharedKeysEnv.SVC_SIGNING_KEY,
    });
    expect(weak.code).toBe(2);
    expect(weak.stderr).toMatch(/^svc serve: SVC_SESSION_KEY: required with SVC_DATABASE_URL[^\n]*\n$/);
  }, 300_000);
});
