import { createPrivateKey, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeSelfSignedCert } from './self-signed.ts';

describe('makeSelfSignedCert', () => {
  it('makes a certificate that names its subject, verifies with its own key and pairs with the private key', () => {
    const { key, cert } = makeSelfSignedCert('unit-idp', 3);
    const x509 = new X509Certificate(cert);
    expect(x509.subject).toBe('CN=unit-idp');
    expect(x509.issuer).toBe('CN=unit-idp');
    expect(x509.verify(x509.publicKey)).toBe(true);
    expect(x509.checkPrivateKey(createPrivateKey(key))).toBe(true);
    expect(x509.checkPrivateKey(createPrivateKey(makeSelfSignedCert('other').key))).toBe(false);
    const days = (Date.parse(x509.validTo) - Date.parse(x509.validFrom)) / 86_400_000;
    expect(days).toBeGreaterThan(3);
    expect(days).toBeLessThan(3.01);
  });
});
