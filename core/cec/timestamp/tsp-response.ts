import * as pkijs from 'pkijs';
import { sha256Oid, toArrayBuffer, toBuffer } from './crypto-engine.ts';
import { tlv } from './ess.ts';

const signedDataOid = '1.2.840.113549.1.7.2';
const tstInfoOid = '1.2.840.113549.1.9.16.1.4';

/** Reasons a TSA gives in PKIStatus (RFC 3161 section 2.4.2). */
const statusNames = ['granted', 'grantedWithMods', 'rejection', 'waiting', 'revocationWarning', 'revocationNotification'];

export type ParsedToken = {
  readonly signedData: pkijs.SignedData;
  readonly tstInfo: pkijs.TSTInfo;
  readonly imprintAlgorithm: string;
  readonly imprint: Buffer;
  readonly genTime: Date;
  readonly nonce: Buffer | null;
};

/** A positive INTEGER's value without leading zero octets, for comparing nonces. */
export const integerBytes = (value: { valueBlock: { valueHexView: Uint8Array } }): Buffer => {
  const bytes = toBuffer(value.valueBlock.valueHexView);
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start += 1;
  return bytes.subarray(start);
};

/**
 * Why `der` is not one whole DER object (a definite length that ends exactly at its last byte), or null. Bytes
 * after a TimeStampResp lie outside everything its signature covers, so accepting them would let anyone change
 * a signed bundle's timestamp entry and still have it verify; the offline script refuses them too
 * (`der_whole`), and `openssl ts`, which ignores them, runs only after that check.
 */
const wholeDerError = (der: Buffer): string | null => {
  try {
    const end = tlv(der, 0).next;
    return end === der.length ? null : `${der.length - end} bytes follow its DER structure`;
  } catch (error) {
    return (error as Error).message;
  }
};

/**
 * Parses a TimeStampResp (the bytes a TSA returns and we store) down to the TSTInfo. Throws an Error with a
 * readable message when the status is not granted or any layer is malformed.
 */
export const parseTimestampResponse = (der: Buffer): ParsedToken => {
  const notWhole = wholeDerError(der);
  if (notWhole !== null) throw new Error(`not an RFC 3161 TimeStampResp (${notWhole})`);
  let response: pkijs.TimeStampResp;
  try {
    // pkijs parses with its own asn1js; fromBER throws on malformed DER or a schema mismatch.
    response = pkijs.TimeStampResp.fromBER(toArrayBuffer(der));
  } catch (error) {
    throw new Error(`not an RFC 3161 TimeStampResp (${(error as Error).message})`, { cause: error });
  }
  const status = response.status.status;
  if (status !== 0 && status !== 1) {
    const text = response.status.statusStrings?.map((s) => s.valueBlock.value).join('; ') ?? '';
    throw new Error(`TSA refused the request: ${statusNames[status] ?? `status ${status}`}${text ? ` (${text})` : ''}`);
  }
  const token = response.timeStampToken;
  if (token === undefined) throw new Error('TimeStampResp has no timeStampToken');
  if (token.contentType !== signedDataOid) throw new Error('timeStampToken is not CMS SignedData');
  const signedData = new pkijs.SignedData({ schema: token.content });
  const encap = signedData.encapContentInfo;
  if (encap.eContentType !== tstInfoOid || encap.eContent === undefined) {
    throw new Error('SignedData does not encapsulate a TSTInfo');
  }
  const tstInfo = pkijs.TSTInfo.fromBER(encap.eContent.getValue());
  return {
    signedData,
    tstInfo,
    imprintAlgorithm: tstInfo.messageImprint.hashAlgorithm.algorithmId,
    imprint: toBuffer(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView),
    genTime: tstInfo.genTime,
    nonce: tstInfo.nonce === undefined ? null : integerBytes(tstInfo.nonce),
  };
};

export const isSha256Imprint = (token: ParsedToken): boolean => token.imprintAlgorithm === sha256Oid;
