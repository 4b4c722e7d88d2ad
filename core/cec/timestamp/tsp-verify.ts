import * as pkijs from 'pkijs';
import { cryptoEngine, extKeyUsageOid, timeStampingEkuOid, toArrayBuffer } from './crypto-engine.ts';
import { isSha256Imprint, type ParsedToken, parseTimestampResponse } from './tsp-response.ts';

export type TokenCheck = { valid: boolean; errors: string[]; genTime?: string; tsa?: string };

const attributeNames: Readonly<Record<string, string>> = {
  '2.5.4.3': 'CN',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
};

const distinguishedName = (name: pkijs.RelativeDistinguishedNames): string =>
  name.typesAndValues
    .map((tv) => `${attributeNames[tv.type] ?? tv.type}=${String(tv.value.valueBlock.value)}`)
    .join(', ');

/** Parses a PEM bundle (one or more CERTIFICATE blocks) into pkijs certificates. */
export const certificatesFromPem = (pem: string): pkijs.Certificate[] =>
  [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/g)].map((match) => {
    const der = Buffer.from((match[1] ?? '').replace(/\s+/g, ''), 'base64');
    return pkijs.Certificate.fromBER(toArrayBuffer(der));
  });

const hasTimeStampingEku = (certificate: pkijs.Certificate): boolean => {
  const extension = certificate.extensions?.find((ext) => ext.extnID === extKeyUsageOid);
  const parsed = extension?.parsedValue as pkijs.ExtKeyUsage | undefined;
  return parsed?.keyPurposes.includes(timeStampingEkuOid) ?? false;
};

const signatureCheck = async (
  token: ParsedToken,
  trusted: pkijs.Certificate[] | null,
): Promise<{ errors: string[]; signer: pkijs.Certificate | null }> => {
  try {
    const result = await token.signedData.verify(
      {
        signer: 0,
        checkChain: trusted !== null,
        trustedCerts: trusted ?? [],
        extendedMode: true,
      },
      cryptoEngine,
    );
    const signer = result.signerCertificate ?? null;
    return result.signatureVerified === true
      ? { errors: [], signer }
      : { errors: [`Timestamp signature does not verify: ${result.message || 'bad signature'}`], signer };
  } catch (error) {
    const failure = error as { message?: string; signerCertificate?: pkijs.Certificate | null };
    const reason = failure.message ?? String(error);
    return {
      errors: [
        trusted !== null && /chain|issuer|trusted/i.test(reason)
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
export const verifyRfc3161 = async (
  der: Buffer,
  digest: Buffer,
  trustedCertsPem: readonly string[] | undefined,
): Promise<TokenCheck> => {
  let token: ParsedToken;
  try {
    token = parseTimestampResponse(der);
  } catch (error) {
    return { valid: false, errors: [`Timestamp token unreadable: ${(error as Error).message}`] };
  }
  const errors: string[] = [];
  if (!isSha256Imprint(token)) errors.push(`Timestamp imprint uses ${token.imprintAlgorithm}, expected SHA-256`);
  if (!token.imprint.equals(digest)) errors.push('Timestamp imprint does not match the manifest digest');
  const trusted = trustedCertsPem === undefined ? null : trustedCertsPem.flatMap(certificatesFromPem);
  const { errors: signatureErrors, signer } = await signatureCheck(token, trusted);
  errors.push(...signatureErrors);
  if (signer === null) errors.push('Timestamp token carries no TSA certificate (requested with certReq)');
  else if (!hasTimeStampingEku(signer)) errors.push('TSA certificate lacks the timeStamping extended key usage');
  return {
    valid: errors.length === 0,
    errors,
    genTime: token.genTime.toISOString(),
    ...(signer === null ? {} : { tsa: distinguishedName(signer.subject) }),
  };
};

