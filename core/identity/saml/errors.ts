import type { ErrorCode } from '../../errors.ts';
import { SFIdentityError } from '../../errors.ts';

/**
 * The named checks of the SAML validator. Every rejection says which one failed, so the Identity Settings
 * screen (and an admin reading logs) can tell a clock problem from a certificate problem.
 */
export const samlChecks = [
  'config',
  'size',
  'encoding',
  'xml',
  'structure',
  'decryption',
  'status',
  'signature',
  'algorithm',
  'certificate',
  'issuer',
  'audience',
  'destination',
  'recipient',
  'time',
  'in_response_to',
  'replay',
  'subject',
  'authn_statement',
] as const;
export type SamlCheck = (typeof samlChecks)[number];

const codeFor = (check: SamlCheck): ErrorCode => {
  if (check === 'size') return 'PAYLOAD_TOO_LARGE';
  if (check === 'config') return 'UNAVAILABLE';
  if (check === 'encoding' || check === 'xml' || check === 'structure') return 'VALIDATION';
  return 'UNAUTHENTICATED';
};

/** A rejected SAML message: an SFIdentityError whose `detail.check` names the failed check. */
export const samlError = (check: SamlCheck, message: string, cause?: unknown): SFIdentityError =>
  new SFIdentityError(`SAML ${check} check failed: ${message}`, {
    code: codeFor(check),
    detail: { check },
    ...(cause === undefined ? {} : { cause }),
  });

/** The check named by a SAML error, or undefined for any other error. */
export const failedCheckOf = (error: unknown): SamlCheck | undefined => {
  if (!(error instanceof SFIdentityError)) return undefined;
  const check = error.detail?.['check'];
  return typeof check === 'string' && (samlChecks as readonly string[]).includes(check) ? (check as SamlCheck) : undefined;
};
