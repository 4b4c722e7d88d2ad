/**
 * The app's trust list for bundle signatures: this install's own Ed25519 key plus the public keys the user
 * imported as trusted (other installs, a producer's published key). The verifier trusts nothing else.
 */
import type { JWK } from 'jose';
import { z } from 'zod';
import { hostname } from 'node:os';
import type { App } from '../app.ts';
import { service } from '../app-service.ts';
import { AppError } from '../errors.ts';
import { jsonColumn } from './json-column.ts';
import { exportPublicKey, jwkThumbprint, parsePublicJwk, readTrustedPublicKey } from './ed25519.ts';
import type { TrustedKey } from './verify-signature.ts';

export type TrustedKeyInfo = { readonly kid: string; readonly label: string; readonly added_at: string; readonly jwk: JWK };

const keyRow = z.object({ kid: z.string(), jwk: jsonColumn(z.unknown()), label: z.string(), added_at: z.string() });

/** Parses a public key (SPKI PEM or Ed25519 JWK) into a trusted key with its RFC 7638 thumbprint. */
export const toTrustedKey = async (text: string): Promise<TrustedKey> => {
  let jwk: JWK;
  try {
    jwk = readTrustedPublicKey(text);
  } catch (error) {
    throw new AppError('VALIDATION', `Trusted public key is not an Ed25519 key (PEM or JWK): ${(error as Error).message}`);
  }
  return { kid: await jwkThumbprint(jwk), jwk };
};

export const importTrustedKey = async (app: App, text: string, label: string): Promise<TrustedKeyInfo> => {
  const key = await toTrustedKey(text);
  // A re-import (from any instance) relabels the key and keeps its first added_at: the row says which one won.
  const row = await app.database.one(
    keyRow,
    `INSERT INTO cec_trusted_keys (kid, jwk, label, added_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (kid) DO UPDATE SET label = excluded.label RETURNING kid, jwk, label, added_at`,
    [key.kid, JSON.stringify(key.jwk), label, app.now().toISOString()],
  );
  if (row === undefined) throw new AppError('INTERNAL', 'importing the trusted key returned no row');
  return { kid: row.kid, label: row.label, added_at: row.added_at, jwk: key.jwk };
};

export const listTrustedKeys = async (app: App): Promise<TrustedKeyInfo[]> =>
  (await app.database.all(keyRow, 'SELECT kid, jwk, label, added_at FROM cec_trusted_keys ORDER BY added_at, kid')).flatMap((row) => {
    const jwk = parsePublicJwk(row.jwk);
    return jwk === null ? [] : [{ kid: row.kid, label: row.label, added_at: row.added_at, jwk }];
  });

/**
 * On PostgreSQL, instances share one registry but each keeps its own Ed25519 key in its data dir (a private key
 * never goes into the database). So that a bundle built by one instance verifies on every other, an instance
 * publishes its public key in the shared trust list before it registers a bundle (once per app; an existing row,
 * and its label, are kept). SQLite has one instance per data dir, whose own key is trusted anyway.
 */
export const publishInstanceKey = async (app: App): Promise<void> => {
  if (app.database.dialect !== 'postgres' || app.dataDir === null) return;
  const published = service(app, 'cec.instanceKeyPublished', () => ({ done: false }));
  if (published.done) return;
  const own = await exportPublicKey(app);
  await app.database.run('INSERT INTO cec_trusted_keys (kid, jwk, label, added_at) VALUES (?, ?, ?, ?) ON CONFLICT (kid) DO NOTHING', [
    own.kid,
    JSON.stringify(own.jwk),
    `svc instance on ${hostname()}`,
    app.now().toISOString(),
  ]);
  published.done = true;
};

/** Removes an imported key; true when it existed. The install's own key cannot be removed (it is not stored here). */
export const removeTrustedKey = async (app: App, kid: string): Promise<boolean> =>
  (await app.database.run('DELETE FROM cec_trusted_keys WHERE kid = ?', [kid])) > 0;

/** The install's own published key (when the app has a data dir, so the key is durable) plus the imported ones. */
export const appTrustList = async (app: App): Promise<TrustedKey[]> => {
  const own = app.dataDir === null ? [] : [await exportPublicKey(app)];
  return [
    ...own.map((key) => ({ kid: key.kid, jwk: key.jwk })),
    ...(await listTrustedKeys(app)).map((key) => ({ kid: key.kid, jwk: key.jwk })),
  ];
};
