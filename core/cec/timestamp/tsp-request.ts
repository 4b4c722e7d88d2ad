import { randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import { sha256Oid, toArrayBuffer } from './crypto-engine.ts';

export type TimestampQuery = { readonly der: Buffer; readonly nonce: Buffer };

/**
 * An RFC 3161 TimeStampReq over a SHA-256 digest: version 1, a random 64-bit positive nonce (so a replayed
 * reply is detected) and certReq true (so the token carries the TSA certificate an auditor needs).
 * Built with asn1js directly: pkijs bundles its own asn1js major version, so its classes do not accept ours.
 *
 *   TimeStampReq ::= SEQUENCE { version INTEGER, messageImprint MessageImprint, reqPolicy OPTIONAL,
 *                               nonce INTEGER OPTIONAL, certReq BOOLEAN DEFAULT FALSE, extensions OPTIONAL }
 */
export const buildTimestampQuery = (digest: Buffer): TimestampQuery => {
  const nonce = randomBytes(8);
  nonce[0] = (nonce[0] ?? 0) & 0x7f; // positive INTEGER without a padding byte
  if (nonce[0] === 0) nonce[0] = 1; // and minimally encoded (no leading zero octet)
  const request = new asn1js.Sequence({
    value: [
      new asn1js.Integer({ value: 1 }),
      new asn1js.Sequence({
        value: [
          new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: sha256Oid }), new asn1js.Null()] }),
          new asn1js.OctetString({ valueHex: toArrayBuffer(digest) }),
        ],
      }),
      new asn1js.Integer({ valueHex: toArrayBuffer(nonce) }),
      new asn1js.Boolean({ value: true }),
    ],
  });
  return { der: Buffer.from(request.toBER(false)), nonce };
};
