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

export const savePendingLogin = (app: App, login: PendingLogin): void => {
  const now = app.now();
  app.db.transaction(() => {
    app.db.prepare('DELETE FROM oidc_pending WHERE expires_at <= ?').run(now.toISOString());
    app.db
      .prepare(
        `INSERT INTO oidc_pending (state, nonce, code_verifier, provider_url, client_id, redirect_uri, scope, browser_binding, created_at, expires_at)
         VALUES (@state, @nonce, @code_verifier, @provider_url, @client_id, @redirect_uri, @scope, @browser_binding, @created_at, @expires_at)`,
      )
      .run({
        ...login,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + pendingTtlSeconds * 1000).toISOString(),
      });
  })();
};

/**
 * Takes the pending login for `state` out of the store (one use only). An unknown, used or expired state is
 * an SFIdentityError: that is the CSRF / replay check of the callback. `browser` is the hash of the callback
 * browser's login cookie (null: none), or undefined for an API completion; it must match how the login began.
 */
export const takePendingLogin = (app: App, state: string, browser: string | null | undefined): PendingLogin => {
  const row = app.db
    .prepare(
      `DELETE FROM oidc_pending WHERE state = ? AND expires_at > ?
       RETURNING state, nonce, code_verifier, provider_url, client_id, redirect_uri, scope, browser_binding`,
    )
    .get(state, app.now().toISOString()) as PendingLogin | undefined;
  if (row === undefined) {
    throw new SFIdentityError('OIDC state mismatch: no pending login for this state (unknown, already used or expired)', {
      code: 'UNAUTHENTICATED',
      detail: { check: 'state' },
    });
  }
  checkLoginBinding(row.browser_binding, browser);
  return row;
};
