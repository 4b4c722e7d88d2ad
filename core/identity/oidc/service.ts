import { createHash, timingSafeEqual } from 'node:crypto';
import * as oidc from 'openid-client';
import type { App } from '../../app.ts';
import { SFIdentityError } from '../../errors.ts';
import { loadSamlConfig, spOrigin } from '../saml/config.ts';
import { completeSsoLogin } from '../saml/sso-login.ts';
import { clientConfiguration, describeOidcError, oidcError } from './discovery.ts';
import { type PendingLogin, savePendingLogin, takePendingLogin } from './pending.ts';

/** Spec 2.5 OIDCAuthRequest. */
export type OIDCAuthRequest = {
  readonly authorization_url: string;
  readonly state: string;
  readonly code_verifier: string;
  readonly code_challenge: string;
  readonly provider_url: string;
  readonly client_id: string;
  readonly redirect_uri: string;
  readonly scope: string;
};

/** Spec 2.5 OIDCTokenResult. */
export type OIDCTokenResult = {
  readonly access_token: string;
  readonly token_type: string;
  readonly expires_in: number;
  readonly id_token: string | null;
  readonly session_jwt: string;
  readonly subject: string;
  readonly email: string;
};

export type OidcAuthorizeInput = {
  readonly provider_url?: string | undefined;
  readonly client_id?: string | undefined;
  readonly redirect_uri?: string | undefined;
  readonly scope?: string | undefined;
};

export const defaultScope = 'openid email profile';

/** The URL parser's form, because the token request sends that form and the provider compares exactly. */
const normalizeRedirectUri = (value: string): string => {
  try {
    return new URL(value).href;
  } catch (error) {
    throw oidcError('config', 'the redirect URI is not a valid URL', error);
  }
};

/**
 * Starts an authorization-code login with PKCE S256: discovers the provider (cached), keeps state, nonce and
 * the code verifier server-side (SQLite, 10 minutes, one use) and returns where to send the user. Defaults
 * come from SVC_OIDC_PROVIDER_URL, SVC_OIDC_CLIENT_ID and SVC_OIDC_REDIRECT_URI (else `<origin>/oidc/callback`).
 */
export const oidcAuthorize = async (
  app: App,
  input: OidcAuthorizeInput = {},
  options: { origin?: string; browserBinding?: string } = {},
): Promise<OIDCAuthRequest> => {
  const settings = app.settings.get();
  const provider_url = input.provider_url || settings.oidcProviderUrl;
  const client_id = input.client_id || settings.oidcClientId;
  const redirect_uri = normalizeRedirectUri(
    input.redirect_uri || settings.oidcRedirectUri || `${spOrigin(app, await loadSamlConfig(app), options.origin)}/oidc/callback`,
  );
  const scope = (input.scope || defaultScope).trim().replace(/\s+/g, ' ');
  if (provider_url === '') throw oidcError('config', 'no OIDC provider URL is configured (SVC_OIDC_PROVIDER_URL)');
  if (client_id === '') throw oidcError('config', 'no OIDC client id is configured (SVC_OIDC_CLIENT_ID)');
  if (!scope.split(' ').includes('openid')) throw oidcError('config', 'the scope must include openid');
  const config = await clientConfiguration(app, provider_url, client_id);
  const code_verifier = oidc.randomPKCECodeVerifier();
  const code_challenge = await oidc.calculatePKCECodeChallenge(code_verifier);
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  await savePendingLogin(app, {
    state,
    nonce,
    code_verifier,
    provider_url,
    client_id,
    redirect_uri,
    scope,
    browser_binding: options.browserBinding ?? null,
  });
  const authorization_url = oidc.buildAuthorizationUrl(config, {
    redirect_uri,
    scope,
    code_challenge,
    code_challenge_method: 'S256',
    state,
    nonce,
  }).href;
  return { authorization_url, state, code_verifier, code_challenge, provider_url, client_id, redirect_uri, scope };
};

export type VerifiedOidcLogin = {
  readonly pending: PendingLogin;
  readonly tokens: oidc.TokenEndpointResponse;
  readonly subject: string;
  readonly email: string;
  readonly idpSessionId: string;
};

/**
 * Exchanges the code (with the stored PKCE verifier and the client secret) and validates the ID token
 * (signature, issuer, audience, expiry, nonce). The email comes from the ID token, else from userinfo.
 */
export const exchangeOidcCode = async (
  app: App,
  input: { code: string; state: string; iss?: string | undefined; browser?: string | null },
): Promise<VerifiedOidcLogin> => {
  const pending = await takePendingLogin(app, input.state, input.browser);
  const config = await clientConfiguration(app, pending.provider_url, pending.client_id);
  const callbackUrl = new URL(pending.redirect_uri);
  callbackUrl.searchParams.set('code', input.code);
  callbackUrl.searchParams.set('state', input.state);
  // RFC 9207: the HTTP callback passes the iss it received; a direct API call is answered for the expected one.
  if (config.serverMetadata().authorization_response_iss_parameter_supported) {
    callbackUrl.searchParams.set('iss', input.iss ?? config.serverMetadata().issuer);
  }
  let tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers;
  try {
    tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: pending.code_verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
  } catch (error) {
    throw oidcError('token', `the code exchange or ID token validation failed (${describeOidcError(error)})`, error);
  }
  const claims = tokens.claims();
  if (claims === undefined) throw oidcError('token', 'the provider returned no ID token');
  let email = typeof claims['email'] === 'string' ? claims['email'] : undefined;
  if (email === undefined && config.serverMetadata().userinfo_endpoint !== undefined) {
    try {
      const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      email = typeof userinfo.email === 'string' ? userinfo.email : undefined;
    } catch (error) {
      throw oidcError('userinfo', `the userinfo request failed (${describeOidcError(error)})`, error);
    }
  }
  const sid = typeof claims['sid'] === 'string' ? claims['sid'] : undefined;
  const idpSessionId =
    sid ??
    `idtoken-sha256:${createHash('sha256')
      .update(tokens.id_token ?? '')
      .digest('hex')}`;
  return { pending, tokens, subject: claims.sub, email: email ?? '', idpSessionId };
};

const sameText = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/**
 * Starts the SSO session and session JWT for a verified login and shapes the spec's OIDCTokenResult; the
 * HTTP callback also needs the SSO session id and tier for the browser session.
 */
export const completeOidcLogin = async (
  app: App,
  login: VerifiedOidcLogin,
): Promise<{ result: OIDCTokenResult; sessionId: string; tier: 'free' | 'api' | 'admin' }> => {
  const sso = await completeSsoLogin(app, {
    idpSessionId: login.idpSessionId,
    subject: login.subject,
    email: login.email,
    amr: 'oidc',
  });
  const result: OIDCTokenResult = {
    access_token: login.tokens.access_token,
    token_type: 'Bearer',
    expires_in: login.tokens.expires_in ?? 0,
    id_token: login.tokens.id_token ?? null,
    session_jwt: sso.session_jwt,
    subject: login.subject,
    email: login.email,
  };
  return { result, sessionId: sso.session.session_id, tier: sso.tier };
};

/**
 * Spec 4.4 oidc_callback: completes the login for `state` and checks that `subject` and `email` are the ID
 * token's `sub` and `email` claims. State mismatch, a replayed or foreign code, a wrong verifier, a tampered
 * token or different claims: SFIdentityError.
 */
export const oidcCallback = async (
  app: App,
  input: { code: string; state: string; subject: string; email: string; iss?: string | undefined },
): Promise<OIDCTokenResult> => {
  const login = await exchangeOidcCode(app, input);
  if (!sameText(login.subject, input.subject)) {
    throw new SFIdentityError("OIDC subject check failed: the subject is not the ID token's sub claim", {
      code: 'UNAUTHENTICATED',
      detail: { check: 'subject' },
    });
  }
  if (!sameText(login.email.toLowerCase(), input.email.toLowerCase())) {
    throw new SFIdentityError("OIDC email check failed: the email is not the ID token's email claim", {
      code: 'UNAUTHENTICATED',
      detail: { check: 'email' },
    });
  }
  return (await completeOidcLogin(app, login)).result;
};
