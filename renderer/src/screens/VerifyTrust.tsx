import type { Verification } from '../state/bundles.ts';

/** Which keys signed the bundle and whether the verifier trusts them, and what the timestamp says. */
export const VerifyTrust = ({ result }: { result: Verification }) => {
  const { hmac, ed25519 } = result.signatures;
  const stamp = result.timestamp;
  return (
    <dl className="verify-trust" aria-label="Signatures and timestamp">
      <dt>Ed25519 signature</dt>
      <dd>
        {ed25519.checked
          ? `${ed25519.valid ? 'valid' : 'INVALID'}, checked with trusted key ${ed25519.key_id ?? '?'}`
          : `not checked: no trusted public key${ed25519.claimed_key_id ? ` (the bundle names key ${ed25519.claimed_key_id}, which is not trusted)` : ''}`}
      </dd>
      <dt>Manifest HMAC</dt>
      <dd>{hmac.checked ? `${hmac.valid ? 'valid' : 'INVALID'}, key id ${hmac.key_id ?? '?'}` : 'not checked: no HMAC key'}</dd>
      <dt>Timestamp</dt>
      <dd>
        {stamp === null
          ? 'none'
          : stamp.kind === 'stub'
            ? "stub: no timestamp authority was configured; it attests no time (builder's clock)"
            : `${stamp.gen_time ?? 'unknown time'} by ${stamp.tsa ?? 'unknown TSA'} (serial ${stamp.serial ?? '?'}, policy ${stamp.policy ?? '?'}); ${
                stamp.trusted ? 'chains to a trusted TSA root' : 'NOT chained to a trusted TSA root'
              }`}
      </dd>
    </dl>
  );
};
