import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { App } from '../../app.ts';
import type { Queryable } from '../../store/database.ts';

/** A pending SP-initiated login, as the ACS finds it when a Response answers it. */
export type PendingSamlRequest = {
  /** The same-origin path to return to after the login (chosen when the login started, never by the IdP). */
  readonly relayState: string | null;
  /** Hash of the login cookie of the browser that started it; null when started through the API. */
  readonly browserBinding: string | null;
};

/**
 * Tracks SP-initiated requests and seen assertion ids (replay cache), both in the database with expiry, so every
 * instance on one PostgreSQL database shares them.
 */
export type SamlTracker = {
  /** Consumes a pending AuthnRequest id: the request when it was issued here and has not expired or been used. */
  consumeRequest(id: string): Promise<PendingSamlRequest | undefined>;
  /** Records an assertion id until it expires; false when it was already seen (a replay). */
  rememberAssertion(id: string, expiresAt: Date): Promise<boolean>;
};

const purgeExpired = async (db: Queryable, nowIso: string): Promise<void> => {
  await db.run('DELETE FROM saml_requests WHERE expires_at <= ?', [nowIso]);
  await db.run('DELETE FROM saml_seen_assertions WHERE expires_at <= ?', [nowIso]);
};

/** A new AuthnRequest id (an xsd:ID: must not start with a digit), stored until `ttlSeconds` from now. */
export const createRequestId = async (
  app: App,
  ttlSeconds: number,
  request: { relayState?: string | undefined; browserBinding?: string | undefined } = {},
): Promise<string> => {
  const now = app.now();
  const id = `_${randomBytes(20).toString('hex')}`;
  await app.database.transaction(async (tx) => {
    await purgeExpired(tx, now.toISOString());
    await tx.run('INSERT INTO saml_requests (id, relay_state, browser_binding, created_at, expires_at) VALUES (?, ?, ?, ?, ?)', [
      id,
      request.relayState ?? null,
      request.browserBinding ?? null,
      now.toISOString(),
      new Date(now.getTime() + ttlSeconds * 1000).toISOString(),
    ]);
  });
  return id;
};

const requestRow = z.object({ relay_state: z.string().nullable(), browser_binding: z.string().nullable() });
const pendingOf = (row: z.output<typeof requestRow> | undefined): PendingSamlRequest | undefined =>
  row === undefined ? undefined : { relayState: row.relay_state, browserBinding: row.browser_binding };

/** The pending request `id` without consuming it (the test tool), or undefined. */
export const peekRequest = async (app: App, id: string): Promise<PendingSamlRequest | undefined> =>
  pendingOf(
    await app.database.one(requestRow, 'SELECT relay_state, browser_binding FROM saml_requests WHERE id = ? AND expires_at > ?', [
      id,
      app.now().toISOString(),
    ]),
  );

/** Whether an assertion id is in the replay cache (the test tool reports a replay without recording one). */
export const assertionSeen = async (app: App, id: string): Promise<boolean> =>
  (await app.database.one(z.object({ id: z.string() }), 'SELECT id FROM saml_seen_assertions WHERE id = ?', [id])) !== undefined;

const inserted = z.object({ id: z.string() });

export const samlTracker = (app: App): SamlTracker => ({
  // One DELETE ... RETURNING: of concurrent consumers, on any instance, exactly one gets the row.
  consumeRequest: async (id) =>
    pendingOf(
      await app.database.one(
        requestRow,
        'DELETE FROM saml_requests WHERE id = ? AND expires_at > ? RETURNING relay_state, browser_binding',
        [id, app.now().toISOString()],
      ),
    ),
  // The primary key is the arbiter: no row back means another request (or instance) recorded it first.
  rememberAssertion: (id, expiresAt) =>
    app.database.transaction(async (tx) => {
      await purgeExpired(tx, app.now().toISOString());
      const row = await tx.one(
        inserted,
        'INSERT INTO saml_seen_assertions (id, expires_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING RETURNING id',
        [id, expiresAt.toISOString()],
      );
      return row !== undefined;
    }),
});
