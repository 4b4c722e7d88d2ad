import type * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { cryptoEngine, extKeyUsageOid, timeStampingEkuOid, toArrayBuffer, toBuffer } from './crypto-engine.ts';
import { essBindingError } from './ess.ts';
import { isSha256Imprint, type ParsedToken, parseTimestampResponse } from './tsp-response.ts';

export type TokenCheck = {
  valid: boolean;
  errors: string[];
  genTime?: string;
  tsa?: string;
  serial?: string;
  policy?: string;
  /** The TSA certificate chained to one of the given trust anchors. */
  trusted?: boolean;
};

const attributeNames: Readonly<Record<string, string>> = {
  '2.5.4.3': 'CN',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
};

const distinguishedName = (name: pkijs.RelativeDistinguishedNames): string =>
  name.typesAndValues.map((tv) => `${attributeNames[tv.type] ?? tv.type}=${String(tv.value.valueBlock.value)}`).join(', ');

/** Parses a PEM bundle (one or more CERTIFICATE blocks) into pkijs certificates. */
export const certificatesFromPem = (pem: string): pkijs.Certificate[] =>
  [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/g)].map((match) => {
    const der = Buffer.from((match[1] ?? '').replace(/\s+/g, ''), 'base64');
    return pkijs.Certificate.fromBER(toArrayBuffer(der));
  });

/** pkijs SignedDataVerifyError code for a signer certificate that does not chain to a trusted one. */
const chainFailureCode = 5;
const idData = '1.2.840.113549.1.7.1';
const tstInfoOid = '1.2.840.113549.1.9.16.1.4';
const contentTypeAttribute = '1.2.840.113549.1.9.3';

/** RFC 5652 5.3: the signed content-type attribute must name the encapsulated type, here id-ct-TSTInfo. */
const signedContentTypeIsTstInfo = (token: ParsedToken): boolean => {
  const attribute = token.signedData.signerInfos[0]?.signedAttrs?.attributes.find((attr) => attr.type === contentTypeAttribute);
  const value = attribute?.values[0] as { valueBlock?: { toString(): string } } | undefined;
  return value?.valueBlock?.toString() === tstInfoOid;
};

/** RFC 3161 2.3: exactly one EKU extension, critical, with timeStamping as its only purpose. Null when so. */
const ekuError = (certificate: pkijs.Certificate): string | null => {
  const extensions = certificate.extensions?.filter((ext) => ext.extnID === extKeyUsageOid) ?? [];
  const parsed = extensions[0]?.parsedValue as pkijs.ExtKeyUsage | undefined;
  if (extensions.length !== 1 || !(parsed?.keyPurposes.includes(timeStampingEkuOid) ?? false))
    return 'TSA certificate lacks the timeStamping extended key usage';
  if (extensions[0]?.critical !== true) return 'TSA certificate timeStamping extended key usage is not critical';
  if (parsed?.keyPurposes.length !== 1) return 'TSA certificate extended key usage has purposes beyond timeStamping';
  return null;
};

/** GeneralName tag of a directoryName. */
const directoryName = 4;
const subjectAltNameOid = '2.5.29.17';

// toSchema() of a parsed GeneralName is its block, never the schema-only Choice its type also allows.
const generalNameDer = (name: pkijs.GeneralName): Buffer => toBuffer((name.toSchema() as unknown as asn1js.BaseBlock).toBER(false));

/**
 * Whether a TSTInfo `tsa` name is one of the signer's names: its subject, or any entry of its subjectAltName
 * (RFC 3161 2.4.2 "one of the subject names included in the certificate", as openssl ts -verify compares them).
 */
const namesSigner = (tsa: pkijs.GeneralName, signer: pkijs.Certificate): boolean => {
  if (tsa.type === directoryName && (tsa.value as pkijs.RelativeDistinguishedNames).isEqual(signer.subject)) return true;
  const altNames = signer.extensions?.find((ext) => ext.extnID === subjectAltNameOid)?.parsedValue as pkijs.AltName | undefined;
  const wanted = generalNameDer(tsa);
  return altNames?.altNames.some((name) => generalNameDer(name).equals(wanted)) ?? false;
};

/**
 * TSTInfo version 1, and its optional `tsa` name naming the signer, as openssl ts -verify demands: a token
 * claiming another TSA's name is refused rather than shown under the signer's. Null when so.
 */
const tstInfoError = (token: ParsedToken, signer: pkijs.Certificate): string | null => {
  const { version, tsa } = token.tstInfo;
  if (version !== 1) return `Timestamp TSTInfo version is ${version}, not 1`;
  if (tsa !== undefined && !namesSigner(tsa, signer)) return 'Timestamp names a TSA other than the certificate that signed it';
  return null;
};

const keyUsageOid = '2.5.29.15';
/** digitalSignature and nonRepudiation, the first two bits of the keyUsage BIT STRING. */
const signingBits = 0xc0;

/**
 * A keyUsage extension, when present, allows signing only (digitalSignature and/or nonRepudiation), as
 * OpenSSL's timestamp-signing purpose (`openssl ts -verify`) demands: a key also meant for encipherment or
 * certificate signing is not a TSA key. Null when so.
 */
const keyUsageError = (certificate: pkijs.Certificate): string | null => {
  const extension = certificate.extensions?.find((ext) => ext.extnID === keyUsageOid);
  if (extension === undefined) return null;
  const bits = toBuffer((extension.parsedValue as asn1js.BitString).valueBlock.valueHexView);
  const onlySigning = bits.every((byte, i) => (i === 0 ? byte & ~signingBits : byte) === 0);
  return onlySigning && ((bits[0] ?? 0) & signingBits) !== 0 ? null : 'TSA certificate key usage is not limited to signing';
};

/** Told to the user when a real token is checked without a trust anchor: integrity alone proves no time. */
export const noTrustAnchor = 'TSA certificate not checked against a trusted root: give --tsa-ca FILE or set SVC_TSA_CA_FILE';

const signatureCheck = async (
  token: ParsedToken,
  trusted: pkijs.Certificate[] | null,
): Promise<{ errors: string[]; signer: pkijs.Certificate | null }> => {
  const signedData = token.signedData;
  // pkijs, seeing a TSTInfo, wants the original timestamped data to re-hash; we hold only its digest and
  // check the imprint ourselves. Verified as plain CMS content instead (this parse is ours alone to change):
  // the eContent hash against the signed messageDigest attribute, then the signature over the signed
  // attributes, the chain evaluated at genTime. The content-type attribute is checked separately below.
  signedData.encapContentInfo.eContentType = idData;
  try {
    const result = await signedData.verify(
      {
        signer: 0,
        checkChain: trusted !== null,
        trustedCerts: trusted ?? [],
        checkDate: token.genTime,
        extendedMode: true,
      },
      cryptoEngine,
    );
    const signer = result.signerCertificate ?? null;
    return result.signatureVerified === true
      ? { errors: [], signer }
      : { errors: [`Timestamp signature does not verify: ${result.message || 'bad signature'}`], signer };
  } catch (error) {
    const failure = error as { code?: number; message?: string; signerCertificate?: pkijs.Certificate | null };
    const reason = failure.message ?? String(error);
    return {
      errors: [
        failure.code === chainFailureCode
          ? `Timestamp TSA certificate does not chain to a trusted certificate: ${reason}`
          : `Timestamp signature does not verify: ${reason}`,
      ],
      signer: failure.signerCertificate ?? null,
    };
  }
};

/**
 * Checks a stored RFC 3161 reply against the digest it should cover: the imprint equals the digest, the CMS
 * signature verifies with the TSA certificate embedded in the token (and chains to `trustedCertsPem` when
 * given), and the signing certificate is meant for timestamping (EKU id-kp-timeStamping).
 */
export const verifyRfc3161 = async (der: Buffer, digest: Buffer, trustedCertsPem: readonly string[] | undefined): Promise<TokenCheck> => {
  let token: ParsedToken;
  try {
    token = parseTimestampResponse(der);
  } catch (error) {
    return { valid: false, errors: [`Timestamp token unreadable: ${(error as Error).message}`] };
  }
  const errors: string[] = [];
  if (!isSha256Imprint(token)) errors.push(`Timestamp imprint uses ${token.imprintAlgorithm}, expected SHA-256`);
  if (!token.imprint.equals(digest)) errors.push('Timestamp imprint does not match the manifest digest');
  if (!signedContentTypeIsTstInfo(token)) errors.push('Timestamp signed attributes do not declare TSTInfo content');
  // Only signer 0 is verified below: a token with any other signature is refused (RFC 3161 2.4.2, openssl ts).
  const signers = token.signedData.signerInfos.length;
  if (signers !== 1) errors.push(`Timestamp token carries ${signers} signatures; RFC 3161 allows only the TSA's`);
  let trusted: pkijs.Certificate[] | null = null;
  try {
    trusted = (trustedCertsPem ?? []).flatMap(certificatesFromPem);
  } catch (error) {
    errors.push(`TSA trust anchor unreadable: ${(error as Error).message}`);
  }
  if (trusted !== null && trusted.length === 0) {
    errors.push(noTrustAnchor);
    trusted = null;
  }
  const { errors: signatureErrors, signer } = await signatureCheck(token, trusted);
  errors.push(...signatureErrors);
  if (signer === null) errors.push('Timestamp token carries no TSA certificate (requested with certReq)');
  else {
    for (const error of [ekuError(signer), keyUsageError(signer), tstInfoError(token, signer)]) if (error !== null) errors.push(error);
    const ess = essBindingError(token.signedData, signer);
    if (ess !== null) errors.push(ess);
  }
  return {
    valid: errors.length === 0,
    errors,
    genTime: token.genTime.toISOString(),
    serial: toBuffer(token.tstInfo.serialNumber.valueBlock.valueHexView).toString('hex'),
    policy: token.tstInfo.policy,
    trusted: trusted !== null && signatureErrors.length === 0,
    ...(signer === null ? {} : { tsa: distinguishedName(signer.subject) }),
  };
};
