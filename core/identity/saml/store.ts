import { randomBytes } from 'node:crypto';
import type { App } from '../../app.ts';

/** A pending SP-initiated login, as the ACS finds it when a Response answers it. */
export type PendingSamlRequest = {
  /** The same-origin path to return to after the login (chosen when the login started, never by the IdP). */
  readonly relayState: string | null;
  /** Hash of the login cookie of the browser that started it; null when started through the API. */
  readonly browserBinding: string | null;
};

/** Tracks SP-initiated requests and seen assertion ids (replay cache), both in SQLite with expiry. */
export type SamlTracker = {
  /** Consumes a pending AuthnRequest id: the request when it was issued here and has not expired or been used. */
  consumeRequest(id: string): PendingSamlRequest | undefined;
  /** Records an assertion id until it expires; false when it was already seen (a replay). */
  rememberAssertion(id: string, expiresAt: Date): boolean;
};

const purgeExpired = (app: App, nowIso: string): void => {
  app.db.prepare('DELETE FROM saml_requests WHERE expires_at <= ?').run(nowIso);
  app.db.prepare('DELETE FROM saml_seen_assertions WHERE expires_at <= ?').run(nowIso);
};

/** A new AuthnRequest id (an xsd:ID: must not start with a digit), stored until `ttlSeconds` from now. */
export const createRequestId = (
  app: App,
  ttlSeconds: number,
  request: { relayState?: string | undefined; browserBinding?: string | undefined } = {},
): string => {
  const now = app.now();
  const id = `_${randomBytes(20).toString('hex')}`;
  purgeExpired(app, now.toISOString());
  app.db
    .prepare('INSERT INTO saml_requests (id, relay_state, browser_binding, created_at, expires_at) VALUES (?, ?, ?, ?, ?)')
    .run(
      id,
      request.relayState ?? null,
      request.browserBinding ?? null,
      now.toISOString(),
      new Date(now.getTime() + ttlSeconds * 1000).toISOString(),
    );
  return id;
};

type RequestRow = { relay_state: string | null; browser_binding: string | null };
const pendingOf = (row: RequestRow | undefined): PendingSamlRequest | undefined =>
  row === undefined ? undefined : { relayState: row.relay_state, browserBinding: row.browser_binding };

/** The pending request `id` without consuming it (the test tool), or undefined. */
export const peekRequest = (app: App, id: string): PendingSamlRequest | undefined =>
  pendingOf(
    app.db
      .prepare('SELECT relay_state, browser_binding FROM saml_requests WHERE id = ? AND expires_at > ?')
      .get(id, app.now().toISOString()) as RequestRow | undefined,
  );

export const samlTracker = (app: App): SamlTracker => ({
  consumeRequest: (id) =>
    pendingOf(
      app.db
        .prepare('DELETE FROM saml_requests WHERE id = ? AND expires_at > ? RETURNING relay_state, browser_binding')
        .get(id, app.now().toISOString()) as RequestRow | undefined,
    ),
  rememberAssertion: (id, expiresAt) =>
    app.db.transaction(() => {
      const nowIso = app.now().toISOString();
      purgeExpired(app, nowIso);
      const result = app.db
        .prepare('INSERT OR IGNORE INTO saml_seen_assertions (id, expires_at) VALUES (?, ?)')
        .run(id, expiresAt.toISOString());
      return result.changes === 1;
    })(),
});
