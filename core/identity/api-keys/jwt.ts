import { randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { type App, service } from '../../app.ts';
import { AppError } from '../../errors.ts';
import type { Actor, Tier } from '../../ops/define.ts';
import { createSession, isSessionLive, registerOriginLiveness, revokeAllSessions } from '../sessions/store.ts';
import { isKeyActive } from './service.ts';

/** Lifetimes (docs/api.md "Session JWT"). API-key exchanges are short; browser sessions last a working day. */
export const apiKeyJwtSeconds = 15 * 60;
export const webSessionSeconds = 8 * 60 * 60;
/** No token may live longer than the longest lifetime we issue; a far-future `exp` is refused. */
export const maxSessionSeconds = webSessionSeconds;
const issuer = 'svc-workbench';
const audience = 'svc-api';
const clockToleranceSeconds = 5;

export type SessionClaims = {
  readonly sub: string;
  readonly tier: Exclude<Tier, 'public'>;
  readonly scopes?: readonly string[];
  readonly email?: string;
  /** The API key (`key-...`) or SSO session (`sso-...`) the session derives from; it dies with them. */
  readonly origin?: string;
  readonly amr: 'apikey' | 'saml' | 'oidc' | 'local';
};

const claimsSchema = z.object({
  sub: z.string().min(1),
  tier: z.enum(['free', 'api', 'admin']),
  scopes: z.array(z.string()).default([]),
  email: z.string().optional(),
  sid: z.string().startsWith('ses-'),
  amr: z.enum(['apikey', 'saml', 'oidc', 'local']),
  iat: z.number(),
  exp: z.number(),
});

const sessionKeyService = 'identity.sessionKey';

/**
 * The HS256 key: SVC_SESSION_KEY, else a per-install random secret kept in the secret store. Instances sharing
 * one PostgreSQL database share session rows but not their data dirs: without SVC_SESSION_KEY (the same value on
 * each) a token signed by one is refused by the others, so that is said once, at first use.
 */
const signingKey = (app: App): Uint8Array =>
  service(app, sessionKeyService, () => {
    let value = app.settings.secret('sessionKey');
    if (value === undefined) {
      value = randomBytes(32).toString('base64url');
      app.settings.setSecret('sessionKey', value);
    }
    if (app.database.dialect === 'postgres' && (app.env.SVC_SESSION_KEY ?? '') === '') {
      app.log.warn(
        "SVC_SESSION_KEY is not set: session tokens are signed with this instance's own key; set the same SVC_SESSION_KEY on every instance of a shared database",
      );
    }
    return new TextEncoder().encode(value);
  });

// Sessions exchanged from an API key end when the key is revoked or expires.
registerOriginLiveness('key-', isKeyActive);

/**
 * Starts a session (a row in `sessions`, its id the JWT's `sid`) and signs its token. Every token carries
 * `sid`, `iat` and `exp`; the lifetime never exceeds `maxSessionSeconds`.
 */
export const issueSessionJwt = async (
  app: App,
  claims: SessionClaims,
  lifetimeSeconds: number = claims.amr === 'apikey' ? apiKeyJwtSeconds : webSessionSeconds,
): Promise<{ token: string; expires_in: number; sid: string }> => {
  const lifetime = Math.min(lifetimeSeconds, maxSessionSeconds);
  const { sub, origin, ...rest } = claims;
  const session = await createSession(app, { amr: claims.amr, subject: sub, tier: claims.tier, origin, lifetimeSeconds: lifetime });
  const now = Math.floor(app.now().getTime() / 1000);
  const token = await new SignJWT({ ...rest, sid: session.id, scopes: [...(claims.scopes ?? [])] })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(issuer)
    .setAudience(audience)
    .setSubject(sub)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + lifetime)
    .setJti(randomBytes(16).toString('base64url'))
    .sign(signingKey(app));
  return { token, expires_in: lifetime, sid: session.id };
};

/**
 * Replaces the session key and ends every session: all tokens signed with the old key stop verifying, and the
 * session rows are revoked too (SVC_SESSION_KEY pins the key; then only the rows end). Returns how many ended.
 */
export const rotateSessionKey = async (app: App): Promise<{ ended: number; key_rotated: boolean }> => {
  const pinned = (app.env.SVC_SESSION_KEY ?? '') !== '';
  if (!pinned) app.settings.setSecret('sessionKey', randomBytes(32).toString('base64url'));
  app.services.delete(sessionKeyService);
  return { ended: await revokeAllSessions(app), key_rotated: !pinned };
};

/**
 * Verifies signature, issuer, audience and lifetime (`exp` required, no further than `maxSessionSeconds` ahead,
 * no longer than that since `iat`), then that its session is live: not logged out or revoked, and the key or
 * SSO session it came from still alive.
 */
export const verifySessionJwt = async (app: App, token: string): Promise<Actor> => {
  try {
    const { payload } = await jwtVerify(token, signingKey(app), {
      issuer,
      audience,
      algorithms: ['HS256'],
      currentDate: app.now(),
      clockTolerance: clockToleranceSeconds,
      requiredClaims: ['exp', 'iat', 'sid'],
      maxTokenAge: maxSessionSeconds + clockToleranceSeconds,
    });
    const claims = claimsSchema.parse(payload);
    const now = app.now().getTime() / 1000;
    if (claims.exp - claims.iat > maxSessionSeconds || claims.exp > now + maxSessionSeconds + clockToleranceSeconds) {
      throw new AppError('UNAUTHENTICATED', 'Session token lifetime is longer than this server issues');
    }
    if (!(await isSessionLive(app, claims.sid))) throw new AppError('UNAUTHENTICATED', 'The session behind this token has ended');
    return { kind: 'session', id: claims.sid, tier: claims.tier, scopes: claims.scopes, subject: claims.sub };
  } catch (error) {
    if (error instanceof AppError) throw error;
    const expired = error instanceof joseErrors.JWTExpired;
    throw new AppError('UNAUTHENTICATED', expired ? 'Session token expired' : 'Invalid session token', { cause: error });
  }
};
