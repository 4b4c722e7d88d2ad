/**
 * VERIFY.md inside every bundle: a convenience copy of the auditor's procedure. It is listed and hashed in the
 * signed manifest, but an auditor should follow the published docs/auditor/VERIFY.md and run the published
 * verify-offline.sh, not instructions that arrive with the evidence. Every indented command below runs as
 * written with stock tools (a test executes them on a genuine bundle).
 */
export const verifyMarkdown = (input: {
  bundleId: string;
  projectId: string;
  from: string;
  to: string;
  timestampKind: 'rfc3161' | 'stub';
}): string => `# Verifying evidence bundle ${input.bundleId}

Project \`${input.projectId}\`, records with event dates ${input.from} to ${input.to} (UTC, inclusive).

**This file travels with the evidence, so do not rely on it alone.** Use the procedure the producer published
out of band (\`docs/auditor/VERIFY.md\` and \`docs/auditor/verify-offline.sh\` of Compliance Workbench):

    sh verify-offline.sh bundle.zip producer-public.pem [tsa-root.pem]

It needs only \`unzip\`, \`sha256sum\`, \`openssl\` 3.x and \`python3\` and checks everything below, including
the record hashes (RFC 8785) and the chain anchors. The two trust inputs come from outside the bundle: the
producer's Ed25519 public key (compare its RFC 7638 fingerprint with the one they published) and the root
certificate of their timestamp authority.

The manual steps, run from the directory the bundle was unzipped into, with \`PUB\` = the public key PEM and
\`ROOT\` = the TSA root PEM:

## 1. Entry digests

\`manifest.json\` lists the SHA-256 of every entry except itself, \`attestation.json\` and
\`rfc3161_timestamp.tsr\` (those sign the manifest, so it cannot contain them):

    python3 -c 'import json; [print(v["sha256"] + "  " + k) for k, v in json.load(open("manifest.json"))["entries"].items()]' | sha256sum --strict -c -

## 2. Ed25519 signature over the manifest digest

\`attestation.json\` holds a compact JWS (alg EdDSA) whose payload names this bundle and the SHA-256 of
\`manifest.json\`. Split it and check the signature with the public key you were given (never the one inside):

    python3 -c 'import json, base64; c = json.load(open("attestation.json"))["jws"]["compact"].split("."); d = lambda s: base64.urlsafe_b64decode(s + "=" * (-len(s) % 4)); open("jws.input", "w").write(c[0] + "." + c[1]); open("jws.sig", "wb").write(d(c[2])); print(d(c[1]).decode())'
    sha256sum manifest.json
    openssl pkeyutl -verify -pubin -inkey "$PUB" -rawin -in jws.input -sigfile jws.sig

The printed payload's \`manifest_sha256\` must equal the \`sha256sum\` line, and openssl must say
\`Signature Verified Successfully\`.

## 3. Timestamp over the manifest digest

${
  input.timestampKind === 'rfc3161'
    ? `An RFC 3161 token from a timestamp authority; it must chain to the TSA root you trust, with the certificates
checked at the time the token states (\`-attime\`: a token dated before its TSA certificate existed fails):

    openssl ts -reply -in rfc3161_timestamp.tsr -text | grep -E '^(Time stamp|TSA):'
    openssl ts -verify -in rfc3161_timestamp.tsr -digest "$(sha256sum manifest.json | cut -d' ' -f1)" -CAfile "$ROOT" -attime "$(openssl ts -reply -in rfc3161_timestamp.tsr -text | sed -n 's/^Time stamp: //p' | python3 -c 'import calendar, re, sys, time; print(calendar.timegm(time.strptime(re.sub(r"\\.[0-9]+ ", " ", sys.stdin.read().strip()), "%b %d %H:%M:%S %Y GMT")))')"
`
    : `No timestamp authority was configured, so \`rfc3161_timestamp.tsr\` is a text STUB (not a token). It attests
no time; check only that it names this manifest:

    grep "imprint-sha256: $(sha256sum manifest.json | cut -d' ' -f1)" rfc3161_timestamp.tsr
`
}
## 4. Records, chain and anchors

Each record's \`hash\` is SHA-256 of \`prev_hash\` followed by the RFC 8785 (JCS) canonical JSON of the record
without \`hash\`; records (six \`<schema_key>/records.ndjson\` folders) and the hash-only witnesses of
\`chain_proof.json\` link by \`seq\` from \`segment.anchor_prev_hash\` to \`segment.head_hash\`. \`anchors.json\`
holds timestamped chain heads; each must equal the re-derived hash at its seq. JCS needs exact number and
string handling, so use the published \`verify-offline.sh\` (its python part implements RFC 8785) or
\`svc verify bundle.zip --public-key producer-public.pem\`.
`;
