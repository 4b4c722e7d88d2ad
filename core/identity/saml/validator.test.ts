import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ALG } from './signature.ts';
import { createRequestId } from './store.ts';
import { NOW, type Overrides, validatorHarness } from './test/harness.ts';
import { buildResponse, makeTestIdp, type ResponseFields, signElement, type TestIdp, toBase64 } from './test/idp.ts';

let idp: TestIdp;
let attacker: TestIdp;
const harness = validatorHarness(() => idp);
const { freshApp, validate } = harness;
const rejection = async (encoded: string, overrides: Overrides = {}): Promise<string> =>
  (await harness.rejection(encoded, overrides)).check;

beforeAll(() => {
  idp = makeTestIdp('idp');
  attacker = makeTestIdp('attacker');
});
afterEach(() => harness.close());

const signedAssertion = (fields: ResponseFields = {}, signer: TestIdp = idp) =>
  signElement(buildResponse(NOW, fields), fields.assertionId ?? '_assert1', signer);
const signedResponse = (fields: ResponseFields = {}) => signElement(buildResponse(NOW, fields), fields.responseId ?? '_resp1', idp);

describe('SAML validator: accepted responses', () => {
  it('accepts a response whose assertion is signed by a trusted certificate', async () => {
    freshApp();
    const result = await validate(toBase64(signedAssertion()));
    expect(result).toMatchObject({ subject: 'alice@example.org', email: 'alice@example.org', sessionIndex: '_session-abc' });
    expect(result.signedParts).toEqual(['assertion']);
  });

  it('honours each signature policy', async () => {
    const responseOnly = toBase64(signedResponse());
    const assertionOnly = toBase64(signedAssertion());
    const both = toBase64(signElement(signedAssertion(), '_resp1', idp));
    expect(await rejection(responseOnly, { policy: 'assertion' })).toBe('signature');
    expect(await rejection(assertionOnly, { policy: 'response' })).toBe('signature');
    expect(await rejection(assertionOnly, { policy: 'both' })).toBe('signature');
    freshApp();
    expect((await validate(responseOnly, { policy: 'either' })).signedParts).toEqual(['response']);
    freshApp();
    expect((await validate(responseOnly, { policy: 'response' })).subject).toBe('alice@example.org');
    freshApp();
    expect((await validate(both, { policy: 'both' })).signedParts).toEqual(['response', 'assertion']);
  });

  it('trusts several certificates at once (rotation)', async () => {
    freshApp();
    const result = await validate(toBase64(signedAssertion({}, attacker)), { trustedCerts: [idp.cert, attacker.cert] });
    expect(result.subject).toBe('alice@example.org');
  });

  it('consumes a pending InResponseTo exactly once', async () => {
    const local = freshApp();
    const requestId = await createRequestId(local, 600);
    const encoded = toBase64(signedAssertion({ inResponseTo: requestId }));
    expect((await validate(encoded)).inResponseTo).toBe(requestId);
    const again = toBase64(signedAssertion({ inResponseTo: requestId, assertionId: '_assert2' }));
    await expect(validate(again)).rejects.toThrow(/InResponseTo/);
  });

  it('reads a NameID split by an XML comment as the whole value (comment injection)', async () => {
    freshApp();
    const signed = signedAssertion({ nameId: 'alice@example.org.evil.test', email: null });
    const injected = signed.replace('alice@example.org.evil.test', 'alice@example.org<!---->.evil.test');
    expect(injected).not.toBe(signed);
    const result = await validate(toBase64(injected));
    expect(result.subject).toBe('alice@example.org.evil.test');
    expect(result.email).toBe('alice@example.org.evil.test');
  });
});

describe('SAML validator: identity', () => {
  it('takes the email from an attribute when the NameID is persistent', async () => {
    freshApp();
    const result = await validate(
      toBase64(
        signedAssertion({
          nameId: 'u-8f3a',
          nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
          email: 'bob@example.org',
        }),
      ),
    );
    expect(result).toMatchObject({
      subject: 'u-8f3a',
      email: 'bob@example.org',
      nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
    });
  });
});

describe('SAML validator: signatures and wrapping', () => {
  it('rejects a signature placed anywhere but on the Response or the Assertion', async () => {
    const signed = signedAssertion();
    const signature = /<ds:Signature[\s\S]*<\/ds:Signature>/.exec(signed)?.[0] ?? '';
    const moved = signed.replace(signature, '').replace('</saml:Subject>', `${signature}</saml:Subject>`);
    expect(await rejection(toBase64(moved), { policy: 'either' })).toBe('signature');
  });

  it('rejects a response with no signature', async () => {
    expect(await rejection(toBase64(buildResponse(NOW)), { policy: 'either' })).toBe('signature');
  });

  it('rejects content altered after signing', async () => {
    const tampered = signedAssertion().replace('alice@example.org</saml:NameID>', 'mallory@example.org</saml:NameID>');
    expect(await rejection(toBase64(tampered))).toBe('signature');
  });

  it('rejects a signature made by an untrusted key, even with its certificate in KeyInfo', async () => {
    const forged = signedAssertion({}, attacker);
    expect(forged).toContain('X509Certificate');
    expect(await rejection(toBase64(forged))).toBe('certificate');
  });

  it('rejects a signed assertion moved into Extensions with a forged one in its place', async () => {
    const original = signedAssertion();
    const signedPart = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(original)?.[0] ?? '';
    const evil = buildResponse(NOW, {
      assertionId: '_evil',
      nameId: 'admin@example.org',
      responseExtra: `<samlp:Extensions>${signedPart}</samlp:Extensions>`,
    });
    expect(await rejection(toBase64(evil))).toBe('structure');
  });

  it('rejects a duplicated assertion (a forged copy beside the signed one)', async () => {
    const original = signedAssertion();
    const forged =
      /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(buildResponse(NOW, { assertionId: '_evil', nameId: 'admin@example.org' }))?.[0] ?? '';
    const doubled = original.replace('</samlp:Response>', `${forged}</samlp:Response>`);
    expect(await rejection(toBase64(doubled))).toBe('structure');
  });

  it('rejects a forged assertion that reuses the signed assertion id', async () => {
    const original = signedAssertion();
    const forged = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(buildResponse(NOW, { nameId: 'admin@example.org' }))?.[0] ?? '';
    const doubled = original.replace('<samlp:Status>', `<samlp:Extensions>${forged}</samlp:Extensions><samlp:Status>`);
    expect(await rejection(toBase64(doubled))).toBe('structure');
  });

  it('rejects a signed assertion hidden in the Advice of a forged assertion', async () => {
    const original = signedAssertion();
    const signedPart = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(original)?.[0] ?? '';
    const forged = buildResponse(NOW, { assertionId: '_evil', nameId: 'admin@example.org' }).replace(
      '<saml:AuthnStatement',
      `<saml:Advice>${signedPart}</saml:Advice><saml:AuthnStatement`,
    );
    expect(await rejection(toBase64(forged))).toBe('structure');
  });

  it('rejects a response signature whose reference points at another element', async () => {
    const xml = signElement(buildResponse(NOW), '_resp1', idp, { referenceId: '_assert1' });
    expect(await rejection(toBase64(xml), { policy: 'response' })).toBe('signature');
  });

  it('rejects a signed response wrapped inside a forged response', async () => {
    const inner = signedResponse();
    const wrapper = buildResponse(NOW, {
      responseId: '_evilresp',
      assertionId: '_evil',
      responseExtra: `<samlp:Extensions>${inner}</samlp:Extensions>`,
    });
    expect(await rejection(toBase64(wrapper), { policy: 'response' })).toBe('structure');
  });

  it('rejects SHA-1 unless explicitly allowed', async () => {
    const sha1 = signElement(buildResponse(NOW), '_assert1', idp, { signatureAlgorithm: ALG.rsaSha1, digestAlgorithm: ALG.sha1 });
    expect(await rejection(toBase64(sha1))).toBe('algorithm');
    freshApp();
    expect((await validate(toBase64(sha1), { allowSha1: true })).subject).toBe('alice@example.org');
  });
});

describe('SAML validator: conditions', () => {
  const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000).toISOString();
  it.each([
    ['expired Conditions', { notOnOrAfter: minutes(-5) }, 'time'],
    ['not yet valid Conditions', { notBefore: minutes(5) }, 'time'],
    ['expired SubjectConfirmationData', { confirmationNotOnOrAfter: minutes(-5) }, 'time'],
    ['wrong audience', { audience: 'https://other-sp.example.test' }, 'audience'],
    ['wrong recipient', { recipient: 'https://evil.example.test/acs' }, 'recipient'],
    ['wrong destination', { destination: 'https://evil.example.test/acs' }, 'destination'],
    ['unknown InResponseTo', { inResponseTo: '_never-issued' }, 'in_response_to'],
    ['wrong issuer', { issuer: 'https://evil-idp.example.test' }, 'issuer'],
    ['failed status', { statusCode: 'urn:oasis:names:tc:SAML:2.0:status:Requester' }, 'status'],
  ] as const)('rejects %s', async (_name, fields, check) => {
    expect(await rejection(toBase64(signedAssertion(fields)))).toBe(check);
  });

  it('accepts timestamps within the allowed clock skew', async () => {
    freshApp();
    expect((await validate(toBase64(signedAssertion({ notBefore: minutes(0.5) })))).subject).toBe('alice@example.org');
  });

  it('rejects unsolicited responses when IdP-initiated login is disabled', async () => {
    expect(await rejection(toBase64(signedAssertion()), { allowIdpInitiated: false })).toBe('in_response_to');
  });

  it('rejects a replayed assertion (ids kept in SQLite until they expire)', async () => {
    freshApp();
    const encoded = toBase64(signedAssertion());
    await validate(encoded);
    await expect(validate(encoded)).rejects.toThrow(/already used/);
    const stored = harness.app().db.prepare('SELECT id, expires_at FROM saml_seen_assertions').all();
    expect(stored).toEqual([{ id: '_assert1', expires_at: new Date(NOW.getTime() + 6 * 60_000).toISOString() }]);
  });
});

describe('SAML validator: hostile input', () => {
  it('rejects base64 garbage', async () => {
    expect(await rejection('this is %%% not base64!!')).toBe('encoding');
    expect(await rejection('')).toBe('encoding');
  });

  it('rejects bytes that decode to non-XML', async () => {
    expect(await rejection(Buffer.from('hello world').toString('base64'))).toBe('xml');
  });

  it('rejects several root elements', async () => {
    expect(await rejection(toBase64(`${signedAssertion()}<samlp:Response/>`))).toBe('xml');
  });

  it('rejects a DTD (XXE / entity expansion)', async () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>${signedAssertion().replace('alice@example.org</saml:NameID>', '&x;</saml:NameID>')}`;
    expect(await rejection(toBase64(xxe))).toBe('xml');
  });

  it('rejects a huge document before parsing it', async () => {
    const huge = toBase64(`<samlp:Response>${'x'.repeat(400_000)}</samlp:Response>`);
    expect(await rejection(huge)).toBe('size');
  });

  it('rejects deeply nested XML quickly', async () => {
    const depth = 5000;
    const deep = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</samlp:Response>`;
    const started = Date.now();
    expect(await rejection(toBase64(deep))).toBe('xml');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('rejects wrong encodings: UTF-16, a non-UTF-8 declaration, invalid UTF-8 bytes', async () => {
    const xml = signedAssertion();
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]).toString('base64');
    expect(await rejection(utf16)).toBe('encoding');
    expect(await rejection(toBase64(`<?xml version="1.0" encoding="ISO-8859-1"?>${xml}`))).toBe('encoding');
    const invalid = Buffer.concat([Buffer.from(xml.slice(0, 50)), Buffer.from([0xc3, 0x28]), Buffer.from(xml.slice(50))]);
    expect(await rejection(invalid.toString('base64'))).toBe('encoding');
  });

  it('refuses to validate without trusted certificates or an expected issuer', async () => {
    expect(await rejection(toBase64(signedAssertion()), { trustedCerts: [] })).toBe('config');
    expect(await rejection(toBase64(signedAssertion()), { expectedIssuer: '' })).toBe('config');
  });
});

describe('SAML validator: what real IdPs send', () => {
  const inZone = (offset: string, fraction = '') => {
    // NOW shifted into the zone: the same instant written with another offset.
    const sign = offset.startsWith('-') ? -1 : 1;
    const [hours, minutes] = offset.slice(1).split(':').map(Number) as [number, number];
    const local = new Date(NOW.getTime() + sign * (hours * 60 + minutes) * 60_000).toISOString().slice(0, 19);
    return (deltaMinutes: number) => {
      const shifted = new Date(Date.parse(`${local}Z`) + deltaMinutes * 60_000).toISOString().slice(0, 19);
      return `${shifted}${fraction}${offset}`;
    };
  };

  it.each([
    ['+00:00', ''],
    ['-05:00', ''],
    ['+05:30', '.123'],
    ['Z', '.1234567'],
  ])('accepts instants with the offset %s (fraction "%s"), normalised to UTC', async (offset, fraction) => {
    const at =
      offset === 'Z'
        ? (m: number) => `${new Date(NOW.getTime() + m * 60_000).toISOString().slice(0, 19)}${fraction}Z`
        : inZone(offset, fraction);
    freshApp();
    const result = await validate(
      toBase64(signedAssertion({ notBefore: at(-1), notOnOrAfter: at(5), confirmationNotOnOrAfter: at(5), issueInstant: at(0) })),
    );
    expect(result.subject).toBe('alice@example.org');
    // The replay cache keeps the id until the UTC expiry (+ skew): proof the offset was applied, not ignored.
    const stored = harness.app().db.prepare('SELECT expires_at FROM saml_seen_assertions').get() as { expires_at: string };
    const millis = Number(fraction.slice(1, 4).padEnd(3, '0'));
    expect(stored.expires_at).toBe(new Date(NOW.getTime() + 6 * 60_000 + millis).toISOString());
  });

  it('applies the offset: an instant that is in the past only once its offset is read is expired', async () => {
    // 11:58 at -00:10 is 12:08 UTC (still valid); 12:08 at +00:10 is 11:58 UTC (expired).
    expect(await rejection(toBase64(signedAssertion({ notOnOrAfter: '2026-03-01T12:08:00+00:10' })))).toBe('time');
    freshApp();
    expect((await validate(toBase64(signedAssertion({ notOnOrAfter: '2026-03-01T11:58:00-00:10' })))).subject).toBe('alice@example.org');
  });

  it.each([
    ['no zone', '2026-03-01T12:05:00'],
    ['a day that does not exist', '2026-02-30T12:05:00Z'],
    ['an hour out of range', '2026-03-01T25:05:00Z'],
    ['an offset beyond 14 hours', '2026-03-01T12:05:00+15:00'],
    ['a date only', '2026-03-01'],
  ])('still rejects %s', async (_name, value) => {
    expect(await rejection(toBase64(signedAssertion({ notOnOrAfter: value })))).toBe('time');
  });

  const withAdvice = (xml: string, advice: string) =>
    xml.replace('<saml:AuthnStatement', `<saml:Advice>${advice}</saml:Advice><saml:AuthnStatement`);
  const assertionOf = (xml: string) => /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)?.[0] ?? '';

  it('evaluates only the top-level signed assertion when its Advice carries further assertions', async () => {
    const advised = assertionOf(signElement(buildResponse(NOW, { assertionId: '_advised', nameId: 'carol@example.org' }), '_advised', idp));
    freshApp();
    const result = await validate(toBase64(signElement(withAdvice(buildResponse(NOW), advised), '_assert1', idp)));
    expect(result).toMatchObject({ subject: 'alice@example.org', assertionId: '_assert1' });
  });

  it('XSW: a forged assertion hidden in the Advice of the signed one is never read', async () => {
    const forged = assertionOf(buildResponse(NOW, { assertionId: '_forged', nameId: 'admin@example.org', email: 'admin@example.org' }));
    freshApp();
    const result = await validate(toBase64(signElement(withAdvice(buildResponse(NOW), forged), '_assert1', idp)));
    expect(result.subject).toBe('alice@example.org');
    expect(result.email).toBe('alice@example.org');
  });

  it('XSW: a forged assertion slipped into the Advice after signing breaks the signature', async () => {
    const forged = assertionOf(buildResponse(NOW, { assertionId: '_forged', nameId: 'admin@example.org' }));
    expect(await rejection(toBase64(withAdvice(signedAssertion(), forged)))).toBe('signature');
  });

  it('XSW: the Advice may not reuse the signed assertion id, and Advice outside the top-level assertion is refused', async () => {
    const sameId = assertionOf(buildResponse(NOW, { nameId: 'admin@example.org' }));
    expect(await rejection(toBase64(withAdvice(signedAssertion(), sameId)))).toBe('structure');
    const forged = assertionOf(buildResponse(NOW, { assertionId: '_forged', nameId: 'admin@example.org' }));
    const inExtensions = signedAssertion({ responseExtra: `<samlp:Extensions><saml:Advice>${forged}</saml:Advice></samlp:Extensions>` });
    expect(await rejection(toBase64(inExtensions))).toBe('structure');
  });

  it('requires an AuthnStatement (Web Browser SSO profile)', async () => {
    const without = buildResponse(NOW).replace(/<saml:AuthnStatement[\s\S]*<\/saml:AuthnStatement>/, '');
    expect(await rejection(toBase64(signElement(without, '_assert1', idp)))).toBe('authn_statement');
  });
});
