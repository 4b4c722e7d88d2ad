import { randomBytes } from 'node:crypto';
import type { App } from '../../app.ts';

/** Tracks SP-initiated requests and seen assertion ids (replay cache), both in SQLite with expiry. */
export type SamlTracker = {
  /** Consumes a pending AuthnRequest id; true when it was issued here and has not expired or been used. */
  consumeRequest(id: string): boolean;
  /** Records an assertion id until it expires; false when it was already seen (a replay). */
  rememberAssertion(id: string, expiresAt: Date): boolean;
};

const purgeExpired = (app: App, nowIso: string): void => {
  app.db.prepare('DELETE FROM saml_requests WHERE expires_at <= ?').run(nowIso);
  app.db.prepare('DELETE FROM saml_seen_assertions WHERE expires_at <= ?').run(nowIso);
};

/** A new AuthnRequest id (an xsd:ID: must not start with a digit), stored until `ttlSeconds` from now. */
export const createRequestId = (app: App, ttlSeconds: number, relayState?: string): string => {
  const now = app.now();
  const id = `_${randomBytes(20).toString('hex')}`;
  purgeExpired(app, now.toISOString());
  app.db
    .prepare('INSERT INTO saml_requests (id, relay_state, created_at, expires_at) VALUES (?, ?, ?, ?)')
    .run(id, relayState ?? null, now.toISOString(), new Date(now.getTime() + ttlSeconds * 1000).toISOString());
  return id;
};

export const samlTracker = (app: App): SamlTracker => ({
  consumeRequest: (id) => {
    const nowIso = app.now().toISOString();
    const result = app.db.prepare('DELETE FROM saml_requests WHERE id = ? AND expires_at > ?').run(id, nowIso);
    return result.changes === 1;
  },
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
