import { createPublicKey } from 'node:crypto';
import type { App } from '../../app.ts';

/** The SP decryption key pair as configured: the secret key, its certificate, and why it cannot be used. */
export type SpDecryption = {
  /** The private key (PEM), only ever handed to the validator; never logged or returned by an op. */
  readonly keyPem: string | undefined;
  /** The certificate to advertise, or undefined when there is none or the pair is unusable. */
  readonly advertisedCertPem: string | undefined;
  readonly problem: string | undefined;
};

const pemShape = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/;

/** Re-wraps a PEM block pasted on one line (a password field drops the line breaks) so OpenSSL can read it. */
const rewrapPem = (text: string): string => {
  const match = pemShape.exec(text);
  if (match === null) return text;
  const [, label, body = ''] = match;
  const lines = body
    .replace(/\s+/g, '')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${lines}\n-----END ${label}-----\n`;
};

const publicDer = (pem: string): Buffer | undefined => {
  try {
    return createPublicKey(pem).export({ type: 'spki', format: 'der' });
  } catch {
    return undefined;
  }
};

/**
 * Reads the secret samlSpDecryptionKey and the setting samlSpEncryptionCert. The certificate is advertised
 * only when the key is present and belongs to it: an IdP that encrypts to a key we do not hold locks users out.
 */
export const spDecryption = (app: App): SpDecryption => {
  const storedKey = app.settings.secret('samlSpDecryptionKey');
  const keyPem = storedKey === undefined ? undefined : rewrapPem(storedKey);
  const certPem = rewrapPem(app.settings.get().samlSpEncryptionCert);
  const unusable = (problem: string): SpDecryption => ({ keyPem, advertisedCertPem: undefined, problem });
  if (certPem.trim() === '') return keyPem === undefined ? unusable('not configured') : unusable('the encryption certificate is missing');
  if (keyPem === undefined) return unusable('the decryption key (secret samlSpDecryptionKey) is missing');
  const fromCert = publicDer(certPem);
  const fromKey = publicDer(keyPem);
  if (fromCert === undefined) return unusable('the encryption certificate is not a readable PEM certificate');
  if (fromKey === undefined) return unusable('the decryption key is not a readable PEM private key');
  if (!fromCert.equals(fromKey)) return unusable('the decryption key does not belong to the encryption certificate');
  return { keyPem, advertisedCertPem: certPem, problem: undefined };
};
