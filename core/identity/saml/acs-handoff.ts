import { createHash, randomBytes } from 'node:crypto';
import type { App } from '../../app.ts';
import { SFIdentityError } from '../../errors.ts';
import { safeReturnPath } from './login-pages.ts';
import type { ValidatedSamlResponse } from './validator.ts';

/**
 * The two-step ACS. The IdP's form POST to the ACS is cross-site, so the browser does not send the SameSite=Lax
 * login cookie with it; the ACS validates the Response, keeps the result under a random one-time handle and
 * redirects (303) to `/saml/complete`, a top-level GET on which the Lax cookie IS sent. That step takes the
 * handle (once, within `handoffTtlSeconds`) and completes the login only in the browser that started it.
 * Only validated Responses are stored (a few short strings), so unauthenticated posts cannot fill the table.
 */
export const handoffTtlSeconds = 60;

/** A validated SAML login waiting for its browser step. */
export type SamlHandoff = {
  readonly subject: string;
  readonly email: string;
  readonly idpSessionId: string;
  /** True for an IdP-initiated Response: there is no login cookie to check. */
  readonly unsolicited: boolean;
  /** Hash of the login cookie of the browser that started the request; null when started through the API. */
  readonly browserBinding: string | null;
  readonly returnPath: string;
};

/** Who logged in and the IdP session the SSO session is bound to (SessionIndex, else the assertion id). */
export const samlLoginIdentity = (validated: ValidatedSamlResponse): Pick<SamlHandoff, 'subject' | 'email' | 'idpSessionId'> => ({
  subject: validated.subject,
  email: validated.email,
  idpSessionId: validated.sessionIndex ?? `saml-assertion:${validated.assertionId}`,
});

const hashHandle = (handle: string): string => createHash('sha256').update(handle).digest('hex');

/**
 * Stores a validated Response for its browser step and returns the handle. The return path is the one chosen
 * when the login started; only an IdP-initiated Response may name one (its RelayState, same-origin paths only).
 */
export const storeHandoff = (app: App, validated: ValidatedSamlResponse, postedRelayState: unknown): string => {
  const now = app.now();
  const handle = randomBytes(32).toString('base64url');
  const handoff: SamlHandoff = {
    ...samlLoginIdentity(validated),
    unsolicited: validated.request === undefined,
    browserBinding: validated.request?.browserBinding ?? null,
    returnPath: safeReturnPath(validated.request === undefined ? postedRelayState : validated.request.relayState),
  };
  app.db.transaction(() => {
    app.db.prepare('DELETE FROM saml_acs_handoffs WHERE expires_at <= ?').run(now.toISOString());
    app.db
      .prepare('INSERT INTO saml_acs_handoffs (handle_hash, json, expires_at) VALUES (?, ?, ?)')
      .run(hashHandle(handle), JSON.stringify(handoff), new Date(now.getTime() + handoffTtlSeconds * 1000).toISOString());
  })();
  return handle;
};

/** Takes the login stored under `handle` out of the store (one use only); unknown, used or expired: refused. */
export const takeHandoff = (app: App, handle: unknown): SamlHandoff => {
  const row =
    typeof handle === 'string' && /^[\w-]{43}$/.test(handle)
      ? (app.db
          .prepare('DELETE FROM saml_acs_handoffs WHERE handle_hash = ? AND expires_at > ? RETURNING json')
          .get(hashHandle(handle), app.now().toISOString()) as { json: string } | undefined)
      : undefined;
  if (row === undefined) {
    throw new SFIdentityError('This SAML sign-in link is unknown, already used or expired; sign in again', {
      code: 'UNAUTHENTICATED',
      detail: { check: 'handoff' },
    });
  }
  return JSON.parse(row.json) as SamlHandoff;
};
