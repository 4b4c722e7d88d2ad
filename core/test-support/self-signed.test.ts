import { createPrivateKey, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { certificateSerial, makeSelfSignedCert } from './self-signed.ts';

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

  it('draws serials that are positive and minimally encoded (no leading zero octet, which OpenSSL refuses)', () => {
    const zeros = Buffer.alloc(16);
    zeros[1] = 0x10;
    for (const random of [zeros, Buffer.alloc(16, 0xff), Buffer.alloc(16, 0x80)]) {
      const first = certificateSerial(random)[0] ?? 0;
      expect([first >= 0x01, first <= 0x7f]).toEqual([true, true]);
    }
    expect(certificateSerial(zeros).subarray(1)).toEqual(zeros.subarray(1));
  });
});
