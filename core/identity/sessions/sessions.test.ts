import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../app.ts';
import { createTestServer, type TestServer } from '../../http/test-support.ts';
import { createLoginToken } from '../../http/web-login.ts';
import { issueSessionJwt, verifySessionJwt } from '../api-keys/jwt.ts';
import { createApiKey, rotateApiKey } from '../api-keys/service.ts';
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

describe('revocable sessions', () => {
  it('gives every token a sid backed by a row; an admin lists and revokes it', async () => {
    const t = await open();
    const exchanged = await t.server.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: t.keyFor('api') } });
    const token = exchanged.json().access_token as string;
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sid: string; exp: number };
    expect(payload.sid).toMatch(/^ses-[0-9A-Z]{26}$/);
    const listed = await t.server.inject({ method: 'POST', url: '/api/ops/sessions.list', headers: t.auth(), payload: {} });
    expect(listed.json().value).toEqual([expect.objectContaining({ id: payload.sid, amr: 'apikey', status: 'active' })]);
    expect(await whoami(t, { authorization: `Bearer ${token}` })).toBe(true);
    const revoked = await t.server.inject({
      method: 'POST',
      url: '/api/ops/sessions.revoke',
      headers: t.auth(),
      payload: { id: payload.sid },
    });
    expect(revoked.json()).toEqual({ ok: true, value: true });
    expect(await whoami(t, { authorization: `Bearer ${token}` })).toBe(false);
    expect((await t.server.inject({ method: 'GET', url: '/v1/svc/ping', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(
      401,
    );
  });

  it('ends the session on logout: the old cookie stops working, also after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-sessions-'));
    dirs.push(dataDir);
    const first = await open({ dataDir });
    const login = await first.server.inject({ method: 'GET', url: `/login?token=${createLoginToken(first.app)}` });
    const cookie = cookieOf(login.headers['set-cookie']);
    expect(await whoami(first, { cookie })).toBe(true);
    const logout = await first.server.inject({ method: 'POST', url: '/auth/logout', headers: { cookie } });
    expect(logout.statusCode).toBe(200);
    expect(await whoami(first, { cookie })).toBe(false);
    await first.close();
    servers.splice(servers.indexOf(first), 1);
    const second = await open({ dataDir });
    expect(await whoami(second, { cookie })).toBe(false);
  });

  it('ends every session when the session key is rotated', async () => {
    const t = await open();
    const login = await t.server.inject({ method: 'POST', url: '/auth/login', payload: { api_key: t.adminKey } });
    const cookie = cookieOf(login.headers['set-cookie']);
    const exchanged = (await t.server.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: t.adminKey } })).json();
    const rotated = await t.server.inject({ method: 'POST', url: '/api/ops/sessions.rotateKey', headers: { cookie }, payload: {} });
    expect(rotated.json()).toEqual({ ok: true, value: { ended: 2, key_rotated: true } });
    expect(await whoami(t, { cookie })).toBe(false);
    expect(await whoami(t, { authorization: `Bearer ${exchanged.access_token}` })).toBe(false);
    const fresh = (await t.server.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: t.adminKey } })).json();
    expect(await whoami(t, { authorization: `Bearer ${fresh.access_token}` })).toBe(true);
  });

  it('refuses a correctly signed token without exp, with a far-future exp, or without a session row', async () => {
    const key = 'k'.repeat(43);
    const app = createApp({ dataDir: ':memory:', env: { SVC_SESSION_KEY: key } });
    try {
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
        return (exp === undefined ? jwt : jwt.setExpirationTime(exp)).sign(new TextEncoder().encode(key));
      };
      await expect(verifySessionJwt(app, await forge({ sid: good.sid }))).rejects.toThrow(/Invalid session token/);
      await expect(verifySessionJwt(app, await forge({ sid: good.sid }, now + 365 * 86_400))).rejects.toThrow();
      await expect(verifySessionJwt(app, await forge({ sid: good.sid }, now + 9 * 3600))).rejects.toThrow();
      await expect(verifySessionJwt(app, await forge({}, now + 600))).rejects.toThrow();
      await expect(verifySessionJwt(app, await forge({ sid: 'ses-01JUNKJUNKJUNKJUNKJUNKJUNK' }, now + 600))).rejects.toThrow(/ended/);
    } finally {
      app.close();
    }
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
    const keyed = createApiKey(t.app, { tier: 'api', owner_user_id: userId });
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
});

describe('API key rotation', () => {
  it('never extends the old key and allows one pending successor', async () => {
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const t = await open({ now: () => new Date(clock) });
    const old = createApiKey(t.app, { tier: 'api', expires_in_days: 1 });
    const successor = rotateApiKey(t.app, old.id, 30 * 86_400);
    const rows = (await t.server.inject({ method: 'GET', url: '/v1/keys', headers: t.auth() })).json() as {
      id: string;
      expires_at: string;
    }[];
    expect(rows.find((row) => row.id === old.id)?.expires_at).toBe(old.expires_at);
    expect(() => rotateApiKey(t.app, old.id, 60)).toThrow(new RegExp(`already rotated to ${successor.id}`));
    const again = await t.server.inject({
      method: 'POST',
      url: `/v1/keys/${old.id}/rotate`,
      headers: t.auth(),
      payload: { grace_seconds: 60 },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toContain('already rotated');
    clock += 3_600_000;
    expect(rotateApiKey(t.app, successor.id).id).toMatch(/^key-/);
  });
});
