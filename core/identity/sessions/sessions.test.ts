import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { repoRoot } from '../../cli/spawn-svc.test-support.ts';
import { createTestServer, type TestServer } from '../../http/test-support.ts';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { issueSessionJwt, verifySessionJwt } from '../api-keys/jwt.ts';
import { createApiKey, revokeApiKey, rotateApiKey } from '../api-keys/service.ts';
import { issueLoginLink } from '../login-links/store.ts';
import { patchUser } from '../scim/users.ts';
import { delegateSession } from '../sso/sessions.ts';

const servers: TestServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const open = async (options: Parameters<typeof createTestServer>[0] = {}): Promise<TestServer> => {
  const server = await createTestServer(options);
  servers.push(server);
  return server;
};

const cookieOf = (setCookie: string | string[] | undefined): string => {
  const header = Array.isArray(setCookie) ? setCookie.join(';') : (setCookie ?? '');
  const match = /svc_session=([^;]+)/.exec(header);
  if (!match?.[1]) throw new Error(`no session cookie in ${header}`);
  return `svc_session=${match[1]}`;
};

const whoami = async (t: TestServer, headers: Record<string, string>): Promise<boolean> =>
  (await t.server.inject({ method: 'GET', url: '/auth/session', headers })).json().authenticated;

const signIn = async (t: TestServer, app: App): Promise<string> =>
  cookieOf(
    (await t.server.inject({ method: 'GET', url: `/login?token=${await issueLoginLink(app.database, app.now())}` })).headers['set-cookie'],
  );

/** Instances of one server share SVC_SESSION_KEY (docs/decisions.md, "API keys and sessions on PostgreSQL"). */
const sharedKey = { SVC_SESSION_KEY: 'k'.repeat(43) };

describe.each(testBackends)('revocable sessions on $name', (backend) => {
  const t = appPerTest(backend);

  it('gives every token a sid backed by a row; an admin lists and revokes it', async () => {
    const s = await open({ app: t().app });
    const exchanged = await s.server.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: await s.newKey('api') } });
    const token = exchanged.json().access_token as string;
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sid: string; exp: number };
    expect(payload.sid).toMatch(/^ses-[0-9A-Z]{26}$/);
    const listed = await s.server.inject({ method: 'POST', url: '/api/ops/sessions.list', headers: s.auth(), payload: {} });
    expect(listed.json().value).toEqual([expect.objectContaining({ id: payload.sid, amr: 'apikey', status: 'active' })]);
    expect(await whoami(s, { authorization: `Bearer ${token}` })).toBe(true);
    const revoked = await s.server.inject({
      method: 'POST',
      url: '/api/ops/sessions.revoke',
      headers: s.auth(),
      payload: { id: payload.sid },
    });
    expect(revoked.json()).toEqual({ ok: true, value: true });
    expect(await whoami(s, { authorization: `Bearer ${token}` })).toBe(false);
    expect((await s.server.inject({ method: 'GET', url: '/v1/svc/ping', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(
      401,
    );
    const again = await s.server.inject({
      method: 'POST',
      url: '/api/ops/sessions.revoke',
      headers: s.auth(),
      payload: { id: payload.sid },
    });
    expect(again.json()).toEqual({ ok: true, value: false });
    const unknown = await s.server.inject({
      method: 'POST',
      url: '/api/ops/sessions.revoke',
      headers: s.auth(),
      payload: { id: 'ses-01JUNKJUNKJUNKJUNKJUNKJUNK' },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('ends every session when the session key is rotated', async () => {
    const s = await open({ app: t().app });
    const login = await s.server.inject({ method: 'POST', url: '/auth/login', payload: { api_key: s.adminKey } });
    const cookie = cookieOf(login.headers['set-cookie']);
    const exchanged = (await s.server.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: s.adminKey } })).json();
    const rotated = await s.server.inject({ method: 'POST', url: '/api/ops/sessions.rotateKey', headers: { cookie }, payload: {} });
    expect(rotated.json()).toEqual({ ok: true, value: { ended: 2, key_rotated: true } });
    expect(await whoami(s, { cookie })).toBe(false);
    expect(await whoami(s, { authorization: `Bearer ${exchanged.access_token}` })).toBe(false);
    const fresh = (await s.server.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: s.adminKey } })).json();
    expect(await whoami(s, { authorization: `Bearer ${fresh.access_token}` })).toBe(true);
  });

  it('never extends the old key on rotation and allows one pending successor', async () => {
    const { app } = t();
    const s = await open({ app });
    const old = await createApiKey(app, { tier: 'api', expires_in_days: 1 });
    const successor = await rotateApiKey(app, old.id, 30 * 86_400);
    const rows = (await s.server.inject({ method: 'GET', url: '/v1/keys', headers: s.auth() })).json() as {
      id: string;
      expires_at: string;
    }[];
    expect(rows.find((row) => row.id === old.id)?.expires_at).toBe(old.expires_at);
    await expect(rotateApiKey(app, old.id, 60)).rejects.toThrow(new RegExp(`already rotated to ${successor.id}`));
    const again = await s.server.inject({
      method: 'POST',
      url: `/v1/keys/${old.id}/rotate`,
      headers: s.auth(),
      payload: { grace_seconds: 60 },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toContain('already rotated');
    expect((await rotateApiKey(app, successor.id)).id).toMatch(/^key-/);
  });
});

describe.each(testBackends)('sessions on $name, shared by two instances of one server', (backend) => {
  const t = appPerTest(backend, { env: sharedKey });
  const two = async (): Promise<[TestServer, TestServer]> => [await open({ app: t().app }), await open({ app: await t().second() })];

  it('refuses a correctly signed token without exp, with a far-future exp, or without a session row', async () => {
    const { app } = t();
    const good = await issueSessionJwt(app, { sub: 'u', tier: 'admin', amr: 'local' });
    await expect(verifySessionJwt(app, good.token)).resolves.toMatchObject({ id: good.sid });
    const now = Math.floor(Date.now() / 1000);
    const forge = (claims: Record<string, unknown>, exp?: number) => {
      const jwt = new SignJWT({ tier: 'admin', amr: 'local', scopes: [], ...claims })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('svc-workbench')
        .setAudience('svc-api')
        .setSubject('u')
        .setIssuedAt(now);
      return (exp === undefined ? jwt : jwt.setExpirationTime(exp)).sign(new TextEncoder().encode(sharedKey.SVC_SESSION_KEY));
    };
    await expect(verifySessionJwt(app, await forge({ sid: good.sid }))).rejects.toThrow(/Invalid session token/);
    await expect(verifySessionJwt(app, await forge({ sid: good.sid }, now + 365 * 86_400))).rejects.toThrow();
    await expect(verifySessionJwt(app, await forge({ sid: good.sid }, now + 9 * 3600))).rejects.toThrow();
    await expect(verifySessionJwt(app, await forge({}, now + 600))).rejects.toThrow();
    await expect(verifySessionJwt(app, await forge({ sid: 'ses-01JUNKJUNKJUNKJUNKJUNKJUNK' }, now + 600))).rejects.toThrow(/ended/);
  });

  it('a session ended on one instance is refused by the other at once', async () => {
    const [a, b] = await two();
    const cookie = await signIn(a, a.app);
    expect(await whoami(b, { cookie })).toBe(true);
    expect((await a.server.inject({ method: 'POST', url: '/auth/logout', headers: { cookie } })).statusCode).toBe(200);
    expect(await whoami(b, { cookie })).toBe(false);
    // An admin on the second instance ends a session started on the first.
    const exchanged = (await a.server.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: a.adminKey } })).json();
    const bearer = { authorization: `Bearer ${exchanged.access_token}` };
    expect(await whoami(a, bearer)).toBe(true);
    const listed = (await b.server.inject({ method: 'POST', url: '/api/ops/sessions.list', headers: b.auth(), payload: {} })).json();
    const sid = (listed.value as { id: string; amr: string }[]).find((session) => session.amr === 'apikey')?.id;
    await b.server.inject({ method: 'POST', url: '/api/ops/sessions.revoke', headers: b.auth(), payload: { id: sid } });
    expect(await whoami(a, bearer)).toBe(false);
  });

  it('a key revoked on one instance ends its exchanged tokens on the other at once', async () => {
    const [a, b] = await two();
    const key = await createApiKey(a.app, { tier: 'admin', name: 'exchange' });
    const exchanged = (await b.server.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: key.secret } })).json();
    const bearer = { authorization: `Bearer ${exchanged.access_token}` };
    expect((await a.server.inject({ method: 'GET', url: '/v1/keys', headers: bearer })).statusCode).toBe(200);
    expect((await b.server.inject({ method: 'GET', url: '/v1/keys', headers: a.auth(key.secret) })).statusCode).toBe(200);
    await revokeApiKey(a.app, key.id);
    expect((await b.server.inject({ method: 'GET', url: '/v1/keys', headers: bearer })).statusCode).toBe(401);
    expect((await b.server.inject({ method: 'GET', url: '/v1/keys', headers: a.auth(key.secret) })).statusCode).toBe(401);
  });

  it('a login link issued by one instance signs in on the other, exactly once', async () => {
    const [a, b] = await two();
    for (let round = 0; round < 3; round++) {
      const token = await issueLoginLink(a.app.database, a.app.now());
      const attempts = await Promise.all([a, b, a, b].map((s) => s.server.inject({ method: 'GET', url: `/login?token=${token}` })));
      expect(attempts.map((reply) => reply.statusCode).sort(), `round ${round}`).toEqual([303, 401, 401, 401]);
      const winner = attempts.find((reply) => reply.statusCode === 303);
      const cookie = cookieOf(winner?.headers['set-cookie']);
      expect([await whoami(a, { cookie }), await whoami(b, { cookie })]).toEqual([true, true]);
    }
  });
});

// Domains not moved yet (SCIM users, SSO sessions) and the SQLite file itself: on the embedded back end only.
describe('sessions on SQLite with the domains that have not moved', () => {
  it('ends the session on logout: the old cookie stops working, also after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-sessions-'));
    dirs.push(dataDir);
    const first = await open({ dataDir });
    const cookie = await signIn(first, first.app);
    expect(await whoami(first, { cookie })).toBe(true);
    const logout = await first.server.inject({ method: 'POST', url: '/auth/logout', headers: { cookie } });
    expect(logout.statusCode).toBe(200);
    expect(await whoami(first, { cookie })).toBe(false);
    await first.close();
    servers.splice(servers.indexOf(first), 1);
    const second = await open({ dataDir });
    expect(await whoami(second, { cookie })).toBe(false);
  });

  it('ends the sessions of a SCIM user who is deactivated', async () => {
    const t = await open();
    const created = await t.server.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: { ...t.auth(), 'content-type': 'application/scim+json' },
      payload: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'dana@example.com' },
    });
    const userId = created.json().id as string;
    const sso = await delegateSession(t.app, { idp_session_id: 'idp-d', subject: 'dana@example.com' });
    const { token } = await issueSessionJwt(t.app, { sub: 'dana@example.com', tier: 'free', origin: sso.session_id, amr: 'saml' });
    const keyed = await createApiKey(t.app, { tier: 'api', owner_user_id: userId });
    const exchanged = await issueSessionJwt(t.app, { sub: userId, tier: 'api', origin: keyed.id, amr: 'apikey' });
    await expect(verifySessionJwt(t.app, token)).resolves.toMatchObject({ subject: 'dana@example.com' });
    await patchUser(
      t.app,
      userId,
      { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'active', value: false }] },
      'http://localhost/scim/v2',
    );
    await expect(verifySessionJwt(t.app, token)).rejects.toThrow(/ended/);
    await expect(verifySessionJwt(t.app, exchanged.token)).rejects.toThrow(/ended/);
  });

  it('`svc serve` prints a one-time link that signs in once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-serve-link-'));
    dirs.push(dataDir);
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'svc.js'), 'serve', '--port', '0', '--data-dir', dataDir], {
      env: { ...process.env, SVC_LOG_LEVEL: 'error' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      const link = await new Promise<string>((resolve, reject) => {
        let err = '';
        child.stderr.on('data', (chunk: Buffer) => {
          err += chunk.toString();
          const match = /(http:\/\/127\.0\.0\.1:\d+\/login\?token=[A-Za-z0-9_-]{43})\n/.exec(err);
          if (match?.[1]) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`svc serve exited with ${code}: ${err}`)));
      });
      const first = await fetch(link, { redirect: 'manual' });
      expect(first.status).toBe(303);
      expect(first.headers.get('set-cookie')).toMatch(/^svc_session=/);
      expect((await fetch(link, { redirect: 'manual' })).status).toBe(401);
    } finally {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }
  });
});
