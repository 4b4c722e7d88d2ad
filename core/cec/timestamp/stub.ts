/**
 * The timestamp stub the spec describes for bundles built without a timestamp authority. It is plain text so
 * nobody can mistake it for a token: a marker line, the imprint it covers and a note saying it proves nothing.
 */
export const stubMarker = 'SVC-RFC3161-STUB v1';

export const createStub = (digest: Buffer, now: Date): Buffer =>
  Buffer.from(
    [
      stubMarker,
      `imprint-sha256: ${digest.toString('hex')}`,
      `generated-at: ${now.toISOString()}`,
      'note: this is NOT an RFC 3161 timestamp token. No timestamp authority (SVC_TSA_URL) was configured,',
      "note: so the time above is the builder's own clock and is not attested by any third party.",
      '',
    ].join('\n'),
    'utf8',
  );

export const isStub = (token: Buffer): boolean => token.subarray(0, stubMarker.length + 1).toString('latin1') === `${stubMarker}\n`;

export type StubCheck = { valid: boolean; errors: string[]; genTime?: string };

/** A stub is valid (per spec: present and well-formed) when it names the digest the caller expects. */
export const verifyStub = (token: Buffer, digest: Buffer): StubCheck => {
  const fields = new Map<string, string>();
  for (const line of token.toString('utf8').split('\n').slice(1)) {
    const colon = line.indexOf(': ');
    if (colon > 0 && !fields.has(line.slice(0, colon))) fields.set(line.slice(0, colon), line.slice(colon + 2));
  }
  const imprint = fields.get('imprint-sha256');
  const generatedAt = fields.get('generated-at');
  const errors: string[] = [];
  if (imprint === undefined) errors.push('Timestamp stub has no imprint-sha256 line');
  else if (imprint !== digest.toString('hex')) {
    errors.push('Timestamp stub imprint does not match the manifest digest');
  }
  return {
    valid: errors.length === 0,
    errors,
    ...(generatedAt === undefined ? {} : { genTime: generatedAt }),
  };
};
