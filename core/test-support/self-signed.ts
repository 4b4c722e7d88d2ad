import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import * as asn1js from 'asn1js';

/**
 * A fresh RSA-2048 key and a self-signed X.509 v3 certificate (SHA-256 with RSA), built in process with
 * node:crypto (keys, signature) and asn1js (DER): what `openssl req -x509 -newkey rsa:2048` makes, synchronously
 * and with nothing to install. PEM strings.
 */
export type KeyAndCert = { readonly key: string; readonly cert: string };

const sha256WithRsa = '1.2.840.113549.1.1.11';
const commonNameOid = '2.5.4.3';
const day = 24 * 60 * 60 * 1000;

const pem = (label: string, der: ArrayBuffer): string => {
  const lines =
    Buffer.from(der)
      .toString('base64')
      .match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
};

const algorithm = () => new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: sha256WithRsa }), new asn1js.Null()] });
const name = (commonName: string) =>
  new asn1js.Sequence({
    value: [
      new asn1js.Set({
        value: [
          new asn1js.Sequence({
            value: [new asn1js.ObjectIdentifier({ value: commonNameOid }), new asn1js.Utf8String({ value: commonName })],
          }),
        ],
      }),
    ],
  });

/**
 * A positive 16-byte serial (top bit clear), as openssl makes, whose first octet is never zero: DER wants the
 * shortest INTEGER, and OpenSSL (so node's X509Certificate and xml-crypto) refuses a certificate whose serial
 * has a redundant leading zero octet, which a plain random first octet gave one time in 256.
 */
export const certificateSerial = (random: Buffer = randomBytes(16)): Buffer => {
  const serial = Buffer.from(random);
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x40;
  return serial;
};

export const makeSelfSignedCert = (commonName: string, validDays = 2): KeyAndCert => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const serial = certificateSerial();
  const now = Date.now();
  const tbs = new asn1js.Sequence({
    value: [
      new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: [new asn1js.Integer({ value: 2 })] }),
      new asn1js.Integer({ valueHex: serial }),
      algorithm(),
      name(commonName),
      new asn1js.Sequence({
        value: [
          new asn1js.UTCTime({ valueDate: new Date(now - 60_000) }),
          new asn1js.UTCTime({ valueDate: new Date(now + validDays * day) }),
        ],
      }),
      name(commonName),
      asn1js.fromBER(publicKey.export({ type: 'spki', format: 'der' })).result,
    ],
  }).toBER();
  const certificate = new asn1js.Sequence({
    value: [asn1js.fromBER(tbs).result, algorithm(), new asn1js.BitString({ valueHex: sign('sha256', Buffer.from(tbs), privateKey) })],
  });
  return {
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    cert: pem('CERTIFICATE', certificate.toBER()),
  };
};
