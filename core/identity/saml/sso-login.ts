import type { App } from '../../app.ts';
import { issueSessionJwt } from '../api-keys/jwt.ts';
import { delegateSession, type SSOSession } from '../sso/sessions.ts';
import { loadSamlConfig } from './config.ts';

export type SsoLogin = {
  readonly session: SSOSession;
  readonly session_jwt: string;
  readonly expires_in: number;
  readonly tier: 'free' | 'api' | 'admin';
};

/**
 * The common end of a SAML or OIDC login: an SSO session bound to the IdP session (so an IdP logout or a SCIM
 * deprovisioning revokes it) and a session JWT whose `sid` is that SSO session. The tier comes from the
 * admin's `sessionTier` option (default `free`): an IdP asserting a user never grants admin by itself.
 */
export const completeSsoLogin = async (
  app: App,
  login: { idpSessionId: string; subject: string; email: string; amr: 'saml' | 'oidc' },
): Promise<SsoLogin> => {
  const tier = (await loadSamlConfig(app)).sessionTier;
  const session = await delegateSession(app, {
    idp_session_id: login.idpSessionId,
    subject: login.subject,
    email: login.email,
    project_id: 'default',
  });
  const { token, expires_in } = await issueSessionJwt(app, {
    sub: login.subject,
    tier,
    ...(login.email === '' ? {} : { email: login.email }),
    origin: session.session_id,
    amr: login.amr,
  });
  return { session, session_jwt: token, expires_in, tier };
};
