import { randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { type App, service } from '../../app.ts';
import { AppError } from '../../errors.ts';
import type { Actor, Tier } from '../../ops/define.ts';
import { isKeyActive } from './service.ts';

/** Lifetimes (docs/api.md "Session JWT"). API-key exchanges are short; browser sessions last a working day. */
export const apiKeyJwtSeconds = 15 * 60;
export const webSessionSeconds = 8 * 60 * 60;
const issuer = 'svc-workbench';
const audience = 'svc-api';

export type SessionClaims = {
  readonly sub: string;
  readonly tier: Exclude<Tier, 'public'>;
  readonly scopes?: readonly string[];
  readonly email?: string;
  /** SSO session id (`sso-...`) or API key id (`key-...`) the token derives from; checked on every use. */
  readonly sid?: string;
  readonly amr: 'apikey' | 'saml' | 'oidc' | 'local';
};

const claimsSchema = z.object({
  sub: z.string().min(1),
  tier: z.enum(['free', 'api', 'admin']),
  scopes: z.array(z.string()).default([]),
  email: z.string().optional(),
  sid: z.string().optional(),
  amr: z.enum(['apikey', 'saml', 'oidc', 'local']),
});

/** The HS256 key: a per-install random secret kept in the secret store (or SVC_SESSION_KEY). */
const signingKey = (app: App): Uint8Array =>
  service(app, 'identity.sessionKey', () => {
    let value = app.settings.secret('sessionKey');
    if (value === undefined) {
      value = randomBytes(32).toString('base64url');
      app.settings.setSecret('sessionKey', value);
    }
    return new TextEncoder().encode(value);
  });

/** Checks whether the session a token derives from is still alive; domains register checks by sid prefix. */
export type SessionLiveness = (app: App, sid: string) => boolean;
const livenessChecks = new Map<string, SessionLiveness>([['key-', (app, sid) => isKeyActive(app, sid)]]);
export const registerSessionLiveness = (sidPrefix: string, check: SessionLiveness): void => void livenessChecks.set(sidPrefix, check);

export const issueSessionJwt = async (
  app: App,
  claims: SessionClaims,
  lifetimeSeconds: number = claims.amr === 'apikey' ? apiKeyJwtSeconds : webSessionSeconds,
): Promise<{ token: string; expires_in: number }> => {
  const now = Math.floor(app.now().getTime() / 1000);
  const { sub, ...rest } = claims;
  const token = await new SignJWT({ ...rest, scopes: [...(claims.scopes ?? [])] })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(issuer)
    .setAudience(audience)
    .setSubject(sub)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + lifetimeSeconds)
    .setJti(randomBytes(16).toString('base64url'))
    .sign(signingKey(app));
  return { token, expires_in: lifetimeSeconds };
};

/** Verifies signature, issuer, audience, lifetime and that the originating key or SSO session is still alive. */
export const verifySessionJwt = async (app: App, token: string): Promise<Actor> => {
  try {
    const { payload } = await jwtVerify(token, signingKey(app), {
      issuer,
      audience,
      algorithms: ['HS256'],
      currentDate: app.now(),
      clockTolerance: 5,
    });
    const claims = claimsSchema.parse(payload);
    if (claims.sid !== undefined) {
      for (const [prefix, check] of livenessChecks) {
        if (claims.sid.startsWith(prefix) && !check(app, claims.sid)) {
          throw new AppError('UNAUTHENTICATED', 'The session behind this token has ended');
        }
      }
    }
    return {
      kind: 'session',
      id: claims.sid ?? claims.sub,
      tier: claims.tier,
      scopes: claims.scopes,
      subject: claims.sub,
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    const expired = error instanceof joseErrors.JWTExpired;
    throw new AppError('UNAUTHENTICATED', expired ? 'Session token expired' : 'Invalid session token', { cause: error });
  }
};
