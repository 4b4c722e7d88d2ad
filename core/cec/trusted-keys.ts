/**
 * The app's trust list for bundle signatures: this install's own Ed25519 key plus the public keys the user
 * imported as trusted (other installs, a producer's published key). The verifier trusts nothing else.
 */
import { calculateJwkThumbprint, type JWK } from 'jose';
import type { App } from '../app.ts';
import { AppError } from '../errors.ts';
import { exportPublicKey, parsePublicJwk, readTrustedPublicKey } from './ed25519.ts';
import type { TrustedKey } from './verify-signature.ts';

export type TrustedKeyInfo = { readonly kid: string; readonly label: string; readonly added_at: string; readonly jwk: JWK };

type Row = { kid: string; jwk: string; label: string; added_at: string };

/** Parses a public key (SPKI PEM or Ed25519 JWK) into a trusted key with its RFC 7638 thumbprint. */
export const toTrustedKey = async (text: string): Promise<TrustedKey> => {
  let jwk: JWK;
  try {
    jwk = readTrustedPublicKey(text);
  } catch (error) {
    throw new AppError('VALIDATION', `Trusted public key is not an Ed25519 key (PEM or JWK): ${(error as Error).message}`);
  }
  return { kid: await calculateJwkThumbprint(jwk, 'sha256'), jwk };
};

export const importTrustedKey = async (app: App, text: string, label: string): Promise<TrustedKeyInfo> => {
  const key = await toTrustedKey(text);
  const row: Row = { kid: key.kid, jwk: JSON.stringify(key.jwk), label, added_at: app.now().toISOString() };
  app.db
    .prepare(
      'INSERT INTO cec_trusted_keys (kid, jwk, label, added_at) VALUES (@kid, @jwk, @label, @added_at) ON CONFLICT (kid) DO UPDATE SET label = excluded.label',
    )
    .run(row);
  return { ...row, jwk: key.jwk };
};

export const listTrustedKeys = (app: App): TrustedKeyInfo[] =>
  (app.db.prepare('SELECT kid, jwk, label, added_at FROM cec_trusted_keys ORDER BY added_at, kid').all() as Row[]).flatMap((row) => {
    const jwk = parsePublicJwk(JSON.parse(row.jwk));
    return jwk === null ? [] : [{ kid: row.kid, label: row.label, added_at: row.added_at, jwk }];
  });

/** Removes an imported key; true when it existed. The install's own key cannot be removed (it is not stored here). */
export const removeTrustedKey = (app: App, kid: string): boolean =>
  app.db.prepare('DELETE FROM cec_trusted_keys WHERE kid = ?').run(kid).changes > 0;

/** The install's own published key (when the app has a data dir, so the key is durable) plus the imported ones. */
export const appTrustList = async (app: App): Promise<TrustedKey[]> => {
  const own = app.dataDir === null ? [] : [await exportPublicKey(app)];
  return [...own.map((key) => ({ kid: key.kid, jwk: key.jwk })), ...listTrustedKeys(app).map((key) => ({ kid: key.kid, jwk: key.jwk }))];
};
