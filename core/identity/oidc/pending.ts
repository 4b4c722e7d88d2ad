import { z } from 'zod';
import type { App } from '../../app.ts';
import { SFIdentityError } from '../../errors.ts';
import { checkLoginBinding } from '../sessions/login-binding.ts';

/** A login started by oidcAuthorize and not yet completed: everything the callback must check against. */
export type PendingLogin = {
  readonly state: string;
  readonly nonce: string;
  readonly code_verifier: string;
  readonly provider_url: string;
  readonly client_id: string;
  readonly redirect_uri: string;
  readonly scope: string;
  /** Hash of the login cookie of the browser that started it; null when started through the API. */
  readonly browser_binding: string | null;
};

export const pendingTtlSeconds = 600;

export const savePendingLogin = async (app: App, login: PendingLogin): Promise<void> => {
  const now = app.now();
  await app.database.transaction(async (tx) => {
    await tx.run('DELETE FROM oidc_pending WHERE expires_at <= ?', [now.toISOString()]);
    await tx.run(
      `INSERT INTO oidc_pending (state, nonce, code_verifier, provider_url, client_id, redirect_uri, scope, browser_binding, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        login.state,
        login.nonce,
        login.code_verifier,
        login.provider_url,
        login.client_id,
        login.redirect_uri,
        login.scope,
        login.browser_binding,
        now.toISOString(),
        new Date(now.getTime() + pendingTtlSeconds * 1000).toISOString(),
      ],
    );
  });
};

const pendingRow = z.object({
  state: z.string(),
  nonce: z.string(),
  code_verifier: z.string(),
  provider_url: z.string(),
  client_id: z.string(),
  redirect_uri: z.string(),
  scope: z.string(),
  browser_binding: z.string().nullable(),
}) satisfies z.ZodType<PendingLogin>;

/**
 * Takes the pending login for `state` out of the store (one use only: of concurrent callbacks on any instance,
 * the one DELETE ... RETURNING that gets the row wins). An unknown, used or expired state is an SFIdentityError:
 * that is the CSRF / replay check of the callback. `browser` is the hash of the callback browser's login cookie
 * (null: none), or undefined for an API completion; it must match how the login began.
 */
export const takePendingLogin = async (app: App, state: string, browser: string | null | undefined): Promise<PendingLogin> => {
  const row = await app.database.one(
    pendingRow,
    `DELETE FROM oidc_pending WHERE state = ? AND expires_at > ?
     RETURNING state, nonce, code_verifier, provider_url, client_id, redirect_uri, scope, browser_binding`,
    [state, app.now().toISOString()],
  );
  if (row === undefined) {
    throw new SFIdentityError('OIDC state mismatch: no pending login for this state (unknown, already used or expired)', {
      code: 'UNAUTHENTICATED',
      detail: { check: 'state' },
    });
  }
  checkLoginBinding(row.browser_binding, browser);
  return row;
};
