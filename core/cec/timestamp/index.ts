/**
 * RFC 3161 timestamps over a bundle's manifest digest (contract B). With a TSA configured (settings.tsaUrl /
 * SVC_TSA_URL) a real token is requested and checked before it is returned; without one, a stub clearly
 * marked as such is written, as the spec describes.
 */
import type { App } from '../../app.ts';
import { SFCECBuildError } from '../../errors.ts';
import { createStub, isStub, verifyStub } from './stub.ts';
import { defaultTsaLimits, describeTsa, postTimestampQuery, type TsaLimits } from './tsa-http.ts';
import type { TokenCheck } from './tsp-verify.ts';

// The ASN.1/CMS modules (pkijs) are imported when a real token is requested or checked: a bundle with a stub, and
// `svc verify` start-up, do not pay for loading them.

export type TimestampKind = 'rfc3161' | 'stub';
export type TimestampToken = { token: Buffer; kind: TimestampKind };
export type TimestampVerification = TokenCheck & { kind: TimestampKind };

const assertDigest = (digest: Buffer): void => {
  if (!Buffer.isBuffer(digest) || digest.length !== 32) {
    throw new TypeError('digest must be the 32-byte SHA-256 of the manifest');
  }
};

const requestToken = async (url: string, digest: Buffer, limits: TsaLimits): Promise<Buffer> => {
  const { buildTimestampQuery } = await import('./tsp-request.ts');
  const { parseTimestampResponse } = await import('./tsp-response.ts');
  const query = buildTimestampQuery(digest);
  const reply = await postTimestampQuery(url, query.der, limits);
  const token = parseTimestampResponse(reply);
  if (token.nonce === null || !token.nonce.equals(query.nonce)) throw new Error('reply nonce does not match the request');
  if (!token.imprint.equals(digest)) throw new Error('reply imprint does not match the digest sent');
  return reply;
};

/**
 * Timestamps a SHA-256 digest. Returns the full TimeStampResp DER (what `openssl ts -reply -in` and
 * `openssl ts -verify -in` read) or, when no TSA is configured, the stub.
 * @throws SFCECBuildError naming the TSA when one is configured but fails: the user asked for a trusted
 * timestamp, so a silent downgrade to the stub would be wrong.
 */
export const createTimestamp = async (app: App, digest: Buffer, limits: TsaLimits = defaultTsaLimits): Promise<TimestampToken> => {
  assertDigest(digest);
  const url = app.settings.get().tsaUrl;
  if (url === '') return { token: createStub(digest, app.now()), kind: 'stub' };
  try {
    const token = await requestToken(url, digest, limits);
    app.log.info({ tsa: describeTsa(url), bytes: token.length }, 'RFC 3161 timestamp obtained');
    return { token, kind: 'rfc3161' };
  } catch (error) {
    const reason = (error as Error).message;
    app.log.warn({ tsa: describeTsa(url), reason }, 'RFC 3161 timestamp failed');
    // UNAVAILABLE (503): the upstream the user asked for is down or broken, not our fault (docs/api.md).
    throw new SFCECBuildError(`Timestamp authority ${describeTsa(url)} failed: ${reason}`, { cause: error, code: 'UNAVAILABLE' });
  }
};

/**
 * Verifies a stored timestamp against the digest it should cover. A stub that names the digest is valid per
 * the spec but reported as kind 'stub'; a real token must match the digest, verify with its embedded TSA
 * certificate (chaining to `trustedCertsPem` when given) and be signed by a timeStamping certificate.
 * Never throws for a bad token: problems are strings in `errors`.
 */
export const verifyTimestamp = async (
  token: Buffer,
  digest: Buffer,
  options: { trustedCertsPem?: string[] } = {},
): Promise<TimestampVerification> => {
  if (token.length === 0) return { kind: 'stub', valid: false, errors: ['Timestamp file is empty'] };
  if (isStub(token)) return { kind: 'stub', ...verifyStub(token, digest) };
  const { verifyRfc3161 } = await import('./tsp-verify.ts');
  return { kind: 'rfc3161', ...(await verifyRfc3161(token, digest, options.trustedCertsPem)) };
};

export { describeTsa, type TsaLimits } from './tsa-http.ts';
export { stubMarker } from './stub.ts';
