import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
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
export const storeHandoff = async (app: App, validated: ValidatedSamlResponse, postedRelayState: unknown): Promise<string> => {
  const now = app.now();
  const handle = randomBytes(32).toString('base64url');
  const handoff: SamlHandoff = {
    ...samlLoginIdentity(validated),
    unsolicited: validated.request === undefined,
    browserBinding: validated.request?.browserBinding ?? null,
    returnPath: safeReturnPath(validated.request === undefined ? postedRelayState : validated.request.relayState),
  };
  await app.database.transaction(async (tx) => {
    await tx.run('DELETE FROM saml_acs_handoffs WHERE expires_at <= ?', [now.toISOString()]);
    await tx.run('INSERT INTO saml_acs_handoffs (handle_hash, json, expires_at) VALUES (?, ?, ?)', [
      hashHandle(handle),
      JSON.stringify(handoff),
      new Date(now.getTime() + handoffTtlSeconds * 1000).toISOString(),
    ]);
  });
  return handle;
};

const handoffSchema = z.object({
  subject: z.string(),
  email: z.string(),
  idpSessionId: z.string(),
  unsolicited: z.boolean(),
  browserBinding: z.string().nullable(),
  returnPath: z.string(),
}) satisfies z.ZodType<SamlHandoff>;
const takenRow = z.object({ json: z.string() });

/**
 * Takes the login stored under `handle` out of the store (one use only: one DELETE ... RETURNING, so of
 * concurrent takers on any instance exactly one gets it); unknown, used or expired: refused.
 */
export const takeHandoff = async (app: App, handle: unknown): Promise<SamlHandoff> => {
  const row =
    typeof handle === 'string' && /^[\w-]{43}$/.test(handle)
      ? await app.database.one(takenRow, 'DELETE FROM saml_acs_handoffs WHERE handle_hash = ? AND expires_at > ? RETURNING json', [
          hashHandle(handle),
          app.now().toISOString(),
        ])
      : undefined;
  if (row === undefined) {
    throw new SFIdentityError('This SAML sign-in link is unknown, already used or expired; sign in again', {
      code: 'UNAUTHENTICATED',
      detail: { check: 'handoff' },
    });
  }
  return handoffSchema.parse(JSON.parse(row.json));
};
