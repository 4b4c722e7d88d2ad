/**
 * The ESS signing-certificate binding of an RFC 3161 token (RFC 2634 / RFC 5035): the signed attributes name
 * the hash of the TSA certificate, so the signature cannot be re-attributed to another certificate carrying
 * the same key. A tiny DER walk over the attribute value; anything unexpected is a failure, never a pass.
 */
import { createHash } from 'node:crypto';
import type * as pkijs from 'pkijs';
import { toBuffer } from './crypto-engine.ts';

const signingCertificateV1 = '1.2.840.113549.1.9.16.2.12';
const signingCertificateV2 = '1.2.840.113549.1.9.16.2.47';

/** DER of the hash OIDs ESSCertIDv2 may name (the default, absent, is SHA-256). */
const hashByOid: ReadonlyMap<string, string> = new Map([
  ['608648016503040201', 'sha256'],
  ['608648016503040202', 'sha384'],
  ['608648016503040203', 'sha512'],
  ['2b0e03021a', 'sha1'],
]);

type Tlv = { tag: number; content: Buffer; next: number };

/** The DER object at `at`: its tag, content and where it ends (definite lengths of 1-3 octets only). */
export const tlv = (der: Buffer, at: number): Tlv => {
  const tag = der[at];
  let length = der[at + 1];
  if (tag === undefined || length === undefined) throw new Error('truncated DER');
  let start = at + 2;
  if (length & 0x80) {
    const octets = length & 0x7f;
    if (octets < 1 || octets > 3) throw new Error('unsupported DER length');
    length = der.readUIntBE(start, octets);
    start += octets;
  }
  if (start + length > der.length) throw new Error('truncated DER');
  return { tag, content: der.subarray(start, start + length), next: start + length };
};

const children = (content: Buffer): Tlv[] => {
  const out: Tlv[] = [];
  for (let at = 0; at < content.length; ) {
    const item = tlv(content, at);
    out.push(item);
    at = item.next;
  }
  return out;
};

const stripZeros = (bytes: Buffer): Buffer => {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start += 1;
  return bytes.subarray(start);
};

/** Null when the first ESSCertID(v2) of the token names `signer`; else the reason. */
export const essBindingError = (signedData: pkijs.SignedData, signer: pkijs.Certificate): string | null => {
  const attributes = signedData.signerInfos[0]?.signedAttrs?.attributes ?? [];
  const attribute =
    attributes.find((attr) => attr.type === signingCertificateV2) ?? attributes.find((attr) => attr.type === signingCertificateV1);
  if (attribute === undefined) return 'Timestamp signed attributes carry no ESS signing-certificate (v1 or v2)';
  try {
    const value = attribute.values[0] as { toBER(): ArrayBuffer } | undefined;
    if (value === undefined) return 'Timestamp ESS signing-certificate attribute is empty';
    const certs = children(tlv(Buffer.from(value.toBER()), 0).content)[0];
    const first = certs === undefined ? undefined : children(certs.content)[0];
    if (first === undefined) return 'Timestamp ESS signing-certificate names no certificate';
    const parts = children(first.content);
    let algorithm = attribute.type === signingCertificateV2 ? 'sha256' : 'sha1';
    if (parts[0]?.tag === 0x30) {
      const oid = children((parts.shift() as Tlv).content)[0];
      algorithm = hashByOid.get(oid?.content.toString('hex') ?? '') ?? '';
      if (algorithm === '') return 'Timestamp ESS signing-certificate uses an unknown hash';
    }
    const certHash = parts[0];
    if (certHash?.tag !== 0x04) return 'Timestamp ESS signing-certificate is malformed';
    const der = Buffer.from(signer.toSchema().toBER());
    if (!createHash(algorithm).update(der).digest().equals(certHash.content))
      return 'Timestamp ESS signing-certificate names another certificate than the one that signed';
    const issuerSerial = parts[1];
    if (issuerSerial !== undefined) {
      const serial = children(issuerSerial.content)[1];
      const expected = stripZeros(toBuffer(signer.serialNumber.valueBlock.valueHexView));
      if (serial?.tag !== 0x02 || !stripZeros(serial.content).equals(expected))
        return 'Timestamp ESS signing-certificate serial differs from the signing certificate';
    }
    return null;
  } catch (error) {
    return `Timestamp ESS signing-certificate unreadable: ${(error as Error).message}`;
  }
};
