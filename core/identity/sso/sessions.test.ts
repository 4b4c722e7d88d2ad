import { afterEach, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../app.ts';
import { issueSessionJwt, verifySessionJwt } from '../api-keys/jwt.ts';
import { delegateSession, delegateSessionAsync, getSession, listSessions, revokeIdpSession, revokeSession } from './sessions.ts';

let clock = Date.parse('2026-03-01T09:00:00.000Z');
const apps: App[] = [];
const open = (): App => {
  const app = createApp({ dataDir: ':memory:', env: {}, now: () => new Date(clock) });
  apps.push(app);
  return app;
};
afterEach(() => {
  for (const app of apps.splice(0)) app.close();
  clock = Date.parse('2026-03-01T09:00:00.000Z');
});

const codeOf = (work: () => unknown): string | undefined => {
  try {
    work();
  } catch (error) {
    return `${(error as Error).name}:${(error as { code?: string }).code}`;
  }
  return undefined;
};

describe('SSO session delegation (spec 2.5, 3, 4.4)', () => {
  it('delegates an 8 h session with an sso-<ulid> id', () => {
    const app = open();
    const session = delegateSession(app, { idp_session_id: 'idp-1', subject: 'alice', email: 'a@x.test', project_id: 'proj' });
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
    expect(getSession(app, session.session_id)).toEqual(session);
  });

  it('defaults email and project_id in the async variant and does not block', async () => {
    const app = open();
    let settled = false;
    const pending = delegateSessionAsync(app, { idp_session_id: 'idp-a', subject: 'bob' }).then((value) => {
      settled = true;
      return value;
    });
    expect(settled).toBe(false);
    expect(await pending).toMatchObject({ email: '', project_id: 'default', revoked: false });
    await expect(delegateSessionAsync(app, { idp_session_id: '', subject: 'bob' })).rejects.toThrow(/idp_session_id/);
  });

  it('raises SFIdentityError for unknown, expired and revoked sessions', () => {
    const app = open();
    expect(codeOf(() => getSession(app, 'sso-unknown'))).toBe('SFIdentityError:NOT_FOUND');
    const session = delegateSession(app, { idp_session_id: 'idp-2', subject: 'carol', email: '', project_id: 'p' });
    clock += 8 * 3600 * 1000;
    expect(codeOf(() => getSession(app, session.session_id))).toBe('SFIdentityError:UNAUTHENTICATED');
    expect(listSessions(app)).toEqual([]);
    expect(listSessions(app, { includeInactive: true })).toHaveLength(1);
  });

  it('revokes every session of an IdP session and reports whether any matched', () => {
    const app = open();
    const first = delegateSession(app, { idp_session_id: 'idp-3', subject: 'dan', email: '', project_id: 'p1' });
    const second = delegateSession(app, { idp_session_id: 'idp-3', subject: 'dan', email: '', project_id: 'p2' });
    const other = delegateSession(app, { idp_session_id: 'idp-4', subject: 'eve', email: '', project_id: 'p1' });
    expect(revokeIdpSession(app, 'idp-3')).toBe(true);
    expect(revokeIdpSession(app, 'idp-3')).toBe(false);
    expect(revokeIdpSession(app, 'idp-none')).toBe(false);
    for (const id of [first.session_id, second.session_id])
      expect(codeOf(() => getSession(app, id))).toBe('SFIdentityError:UNAUTHENTICATED');
    expect(getSession(app, other.session_id).revoked).toBe(false);
    expect(revokeSession(app, other.session_id)).toBe(true);
    expect(listSessions(app, { includeInactive: true }).every((session) => session.revoked)).toBe(true);
  });

  it('kills session JWTs bound to a revoked SSO session', async () => {
    const app = open();
    const session = delegateSession(app, { idp_session_id: 'idp-5', subject: 'fay', email: '', project_id: 'p' });
    const { token } = await issueSessionJwt(app, { sub: 'fay', tier: 'free', origin: session.session_id, amr: 'saml' });
    await expect(verifySessionJwt(app, token)).resolves.toMatchObject({ kind: 'session' });
    revokeIdpSession(app, 'idp-5');
    await expect(verifySessionJwt(app, token)).rejects.toThrow();
  });

  it('validates input', () => {
    const app = open();
    expect(codeOf(() => delegateSession(app, { idp_session_id: 'x', subject: '', email: '', project_id: 'p' }))).toBe(
      'SFIdentityError:VALIDATION',
    );
  });
});
