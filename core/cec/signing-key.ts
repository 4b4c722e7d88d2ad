import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { App } from '../app.ts';
import { service } from '../app-service.ts';

/** Values that ship in examples and tutorials; a bundle signed with one of them proves nothing. */
const insecureDefaults = new Set(['changeme', 'change-me', 'default', 'secret', 'signing-key', 'insecure-default-key', 'dev', 'test']);
const minimumLength = 16;

/** True when a key is empty, short, or a well-known placeholder. */
export const isInsecureKey = (key: string): boolean => key.length < minimumLength || insecureDefaults.has(key.trim().toLowerCase());

/**
 * The HMAC key for manifests: `SVC_SIGNING_KEY`, else the stored `signingKey` secret. When neither is set we
 * generate a random per-install key, store it as the secret (so later builds and verifications agree) and warn:
 * such bundles verify only on this install or with the exported Ed25519 public key. Never logs the key.
 */
export const resolveSigningKey = (app: App): string => {
  const warned = service(app, 'cec.signingKeyWarned', () => ({ done: false }));
  let key = app.settings.secret('signingKey');
  if (key === undefined || key === '') {
    key = randomBytes(32).toString('hex');
    app.settings.setSecret('signingKey', key);
    app.log.warn('SVC_SIGNING_KEY is unset: generated a per-install signing key (stored as the signingKey secret)');
    warned.done = true;
  } else if (isInsecureKey(key) && !warned.done) {
    app.log.warn('SVC_SIGNING_KEY is short or a well-known default: bundles signed with it are not trustworthy');
    warned.done = true;
  }
  return key;
};

/** Key id of an HMAC key: first 16 hex chars of SHA-256 over a domain-separated key, safe to publish. */
export const hmacKeyId = (key: string): string =>
  createHash('sha256').update('svc-cec-hmac-key-id:').update(key).digest('hex').slice(0, 16);

/** `hmac-sha256:<64 hex>` of the bytes. */
export const hmacSha256 = (key: string, bytes: string | Buffer): string =>
  `hmac-sha256:${createHmac('sha256', key).update(bytes).digest('hex')}`;

/** Constant-time comparison of two `hmac-sha256:` strings. */
export const sameHmac = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};
