/**
 * VERIFY.md inside every bundle: how an auditor checks it with stock tools only. The manifest is stored as
 * RFC 8785 (JCS) bytes; for this manifest (ASCII strings, integers) `jq -cS` produces the same bytes.
 */
export const verifyMarkdown = (input: {
  bundleId: string;
  projectId: string;
  from: string;
  to: string;
  timestampKind: 'rfc3161' | 'stub';
}): string => `# Verifying evidence bundle ${input.bundleId}

Project \`${input.projectId}\`, records with event dates ${input.from} to ${input.to} (UTC, inclusive).

Unzip the bundle into an empty directory and run these commands from it.

## 1. Entry digests

\`manifest.json\` lists the SHA-256 of every other entry except \`attestation.json\` and
\`rfc3161_timestamp.tsr\` (those two sign the manifest itself, so the manifest cannot contain them):

    jq -r '.entries | to_entries[] | "\\(.value.sha256)  \\(.key)"' manifest.json | sha256sum -c -

## 2. Manifest HMAC (needs the shared signing key)

The \`hmac\` field is HMAC-SHA256 over the RFC 8785 canonical JSON (JCS) of the manifest without \`hmac\`.
For this manifest \`jq -cS\` (sorted keys, compact) gives exactly the JCS bytes; any JCS library works too:

    jq -cS 'del(.hmac)' manifest.json | tr -d '\\n' | openssl dgst -sha256 -hmac "$SVC_SIGNING_KEY"
    jq -r .hmac manifest.json    # must equal hmac-sha256:<the digest above>

## 3. Ed25519 signature (no shared secret needed)

\`attestation.json\` holds a compact JWS (alg EdDSA) whose payload is JCS of
\`{"bundle_id": ..., "manifest_sha256": ..., "timestamp_kind": ...}\`, plus a public JWK and its RFC 7638 thumbprint
(\`kid\`). Never trust the key inside the bundle: verify with the key the producer published out of band
(\`svc public-key\`, \`GET /v1/risk/cec/public-key\`; compare its thumbprint), then:

    sha256sum manifest.json                       # must equal .manifest_sha256 in attestation.json
    svc verify bundle.zip --public-key producer-public.pem

(or verify the JWS with any JOSE library, e.g. \`jose\`, \`python-jose\`, \`step crypto jws verify\`).

## 4. Timestamp over the manifest digest

The timestamp covers SHA-256 of the \`manifest.json\` bytes.
${
  input.timestampKind === 'rfc3161'
    ? `It is an RFC 3161 token from a timestamp authority:

    openssl ts -reply -in rfc3161_timestamp.tsr -text
    openssl ts -verify -digest "$(sha256sum manifest.json | cut -d' ' -f1)" \\
      -in rfc3161_timestamp.tsr -CAfile tsa-ca.pem -untrusted tsa.pem
`
    : `No timestamp authority was configured, so \`rfc3161_timestamp.tsr\` is a text STUB (not a token): check
that its \`imprint-sha256\` line equals \`sha256sum manifest.json\`. It attests no time.
`
}
## 5. Chain proof

\`chain_proof.json\` covers the chain segment from the first to the last in-range record. In-range records are
in full in the six \`<schema_key>/records.ndjson\` folders; every other record of the segment appears as a
hash-only witness \`{seq, hash, prev_hash}\`. For each record, \`hash\` = SHA-256 hex of
\`prev_hash\` followed by the JCS of the record without \`hash\`. Merge records and witnesses by \`seq\`: each
\`prev_hash\` must equal the previous \`hash\`, from \`segment.anchor_prev_hash\` to \`segment.head_hash\`.

\`svc verify bundle.zip [--key K | --public-key FILE] [--json]\` runs all of the above.
`;
