import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { issueSessionJwt, verifySessionJwt } from '../api-keys/jwt.ts';
import { delegateSession, getSession, listSessions, revokeIdpSession, revokeSession } from './sessions.ts';

let clock = Date.parse('2026-03-01T09:00:00.000Z');
afterEach(() => {
  clock = Date.parse('2026-03-01T09:00:00.000Z');
});

const codeOf = async (work: () => Promise<unknown>): Promise<string | undefined> => {
  try {
    await work();
  } catch (error) {
    return `${(error as Error).name}:${(error as { code?: string }).code}`;
  }
  return undefined;
};

describe.each(testBackends)('SSO session delegation (spec 2.5, 3, 4.4) on $name', (backend) => {
  const t = appPerTest(backend, { now: () => new Date(clock) });
  const open = (): App => t().app;

  it('delegates an 8 h session with an sso-<ulid> id', async () => {
    const app = open();
    const session = await delegateSession(app, { idp_session_id: 'idp-1', subject: 'alice', email: 'a@x.test', project_id: 'proj' });
    expect(session).toEqual({
      session_id: expect.stringMatching(/^sso-[0-9A-HJKMNP-TV-Z]{26}$/),
      idp_session_id: 'idp-1',
      subject: 'alice',
      email: 'a@x.test',
      project_id: 'proj',
      created_at: '2026-03-01T09:00:00.000Z',
      expires_at: '2026-03-01T17:00:00.000Z',
      revoked: false,
    });
    expect(await getSession(app, session.session_id)).toEqual(session);
  });

  it('defaults email and project_id and does not block', async () => {
    const app = open();
    let settled = false;
    const pending = delegateSession(app, { idp_session_id: 'idp-a', subject: 'bob' }).then((value) => {
      settled = true;
      return value;
    });
    expect(settled).toBe(false);
    expect(await pending).toMatchObject({ email: '', project_id: 'default', revoked: false });
    await expect(delegateSession(app, { idp_session_id: '', subject: 'bob' })).rejects.toThrow(/idp_session_id/);
  });

  it('raises SFIdentityError for unknown, expired and revoked sessions', async () => {
    const app = open();
    expect(await codeOf(() => getSession(app, 'sso-unknown'))).toBe('SFIdentityError:NOT_FOUND');
    const session = await delegateSession(app, { idp_session_id: 'idp-2', subject: 'carol', email: '', project_id: 'p' });
    clock += 8 * 3600 * 1000;
    expect(await codeOf(() => getSession(app, session.session_id))).toBe('SFIdentityError:UNAUTHENTICATED');
    expect(await listSessions(app)).toEqual([]);
    expect(await listSessions(app, { includeInactive: true })).toHaveLength(1);
  });

  it('revokes every session of an IdP session and reports whether any matched', async () => {
    const app = open();
    const first = await delegateSession(app, { idp_session_id: 'idp-3', subject: 'dan', email: '', project_id: 'p1' });
    const second = await delegateSession(app, { idp_session_id: 'idp-3', subject: 'dan', email: '', project_id: 'p2' });
    const other = await delegateSession(app, { idp_session_id: 'idp-4', subject: 'eve', email: '', project_id: 'p1' });
    expect(await revokeIdpSession(app, 'idp-3')).toBe(true);
    expect(await revokeIdpSession(app, 'idp-3')).toBe(false);
    expect(await revokeIdpSession(app, 'idp-none')).toBe(false);
    for (const id of [first.session_id, second.session_id])
      expect(await codeOf(() => getSession(app, id))).toBe('SFIdentityError:UNAUTHENTICATED');
    expect((await getSession(app, other.session_id)).revoked).toBe(false);
    expect(await revokeSession(app, other.session_id)).toBe(true);
    expect((await listSessions(app, { includeInactive: true })).every((session) => session.revoked)).toBe(true);
  });

  it('shares sessions and their revocation between instances on one database', async () => {
    const first = open();
    const second = await t().second();
    const session = await delegateSession(first, { idp_session_id: 'idp-shared', subject: 'gil', email: '', project_id: 'p' });
    expect(await getSession(second, session.session_id)).toEqual(session);
    expect(await revokeIdpSession(second, 'idp-shared')).toBe(true);
    expect(await codeOf(() => getSession(first, session.session_id))).toBe('SFIdentityError:UNAUTHENTICATED');
    expect(await revokeIdpSession(first, 'idp-shared')).toBe(false);
  });

  it('validates input', async () => {
    const app = open();
    expect(await codeOf(() => delegateSession(app, { idp_session_id: 'x', subject: '', email: '', project_id: 'p' }))).toBe(
      'SFIdentityError:VALIDATION',
    );
  });
});

describe.each(testBackends)('SSO sessions and session JWTs on $name', (backend) => {
  // Instances of one server share SVC_SESSION_KEY (docs/decisions.md, "API keys and sessions on PostgreSQL").
  const t = appPerTest(backend, { now: () => new Date(clock), env: { SVC_SESSION_KEY: 'k'.repeat(43) } });
  it('kills session JWTs bound to a revoked SSO session, on every instance', async () => {
    const { app } = t();
    const other = await t().second();
    const session = await delegateSession(app, { idp_session_id: 'idp-5', subject: 'fay', email: '', project_id: 'p' });
    const { token } = await issueSessionJwt(app, { sub: 'fay', tier: 'free', origin: session.session_id, amr: 'saml' });
    await expect(verifySessionJwt(other, token)).resolves.toMatchObject({ kind: 'session' });
    await revokeIdpSession(app, 'idp-5');
    await expect(verifySessionJwt(other, token)).rejects.toThrow();
  });
});
