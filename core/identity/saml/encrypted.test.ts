import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encryptAssertionIn, type EncryptionShape, XENC } from './test/encrypt.ts';
import { NOW, type Overrides, validatorHarness } from './test/harness.ts';
import { buildResponse, makeTestIdp, type ResponseFields, signElement, type TestIdp, toBase64 } from './test/idp.ts';

let idp: TestIdp;
let otherIdp: TestIdp;
/** The SP's own key pair: the IdP encrypts to its certificate, the validator decrypts with its key. */
let sp: TestIdp;
let otherSp: TestIdp;
const harness = validatorHarness(() => idp);
afterEach(() => harness.close());

beforeAll(() => {
  idp = makeTestIdp('idp');
  otherIdp = makeTestIdp('other-idp');
  sp = makeTestIdp('sp-encryption');
  otherSp = makeTestIdp('other-sp');
});

const withKey = (overrides: Overrides = {}): Overrides => ({ decryptionKeyPem: sp.key, ...overrides });
const signedAssertionXml = (fields: ResponseFields = {}, signer: TestIdp = idp) =>
  signElement(buildResponse(NOW, fields), fields.assertionId ?? '_assert1', signer);
const signResponse = (xml: string) => signElement(xml, '_resp1', idp);

/** The IdP shapes, as their documentation and their metadata describe them. */
const shapes = {
  entra: { content: XENC.aes256cbc, keyTransport: XENC.rsaOaepMgf1p, digest: 'sha1' },
  adfs: { content: XENC.aes256cbc, keyTransport: XENC.rsaOaepMgf1p, digest: 'sha1' },
  adfsRsa15: { content: XENC.aes256cbc, keyTransport: XENC.rsa15 },
  oktaCbc: { content: XENC.aes256cbc, keyTransport: XENC.rsaOaepMgf1p, digest: 'sha1' },
  oktaGcm: { content: XENC.aes256gcm, keyTransport: XENC.rsaOaepMgf1p, digest: 'sha1' },
  shibboleth: { content: XENC.aes128gcm, keyTransport: XENC.rsaOaep11, digest: 'sha1', mgf: 'sha1', peerKey: true },
} satisfies Record<string, EncryptionShape>;

describe('encrypted assertions as IdPs send them', () => {
  it('Entra ID: signed assertion, RSA-OAEP (SHA-1) + AES-256-CBC', async () => {
    const xml = await encryptAssertionIn(signedAssertionXml(), sp, shapes.entra);
    expect(xml).toContain('<saml:EncryptedAssertion>');
    expect(xml).not.toContain('alice@example.org');
    harness.freshApp();
    const result = await harness.validate(toBase64(xml), withKey());
    expect(result).toMatchObject({ subject: 'alice@example.org', email: 'alice@example.org', signedParts: ['assertion'] });
    expect(result.decryption).toBe('AES-256-CBC content, RSA-OAEP (SHA-1, MGF1-SHA1) key transport');
  });

  it('ADFS: signed assertion, RSA-OAEP + AES-256-CBC accepted; RSA 1.5 refused with the reason', async () => {
    harness.freshApp();
    const oaep = await encryptAssertionIn(signedAssertionXml(), sp, shapes.adfs);
    expect((await harness.validate(toBase64(oaep), withKey())).subject).toBe('alice@example.org');
    const rsa15 = await encryptAssertionIn(signedAssertionXml(), sp, shapes.adfsRsa15);
    const refused = await harness.rejection(toBase64(rsa15), withKey());
    expect(refused.check).toBe('decryption');
    expect(refused.message).toMatch(/RSA 1\.5 key transport is refused.*RSA-OAEP/);
  });

  it.each([
    ['AES-256-CBC', shapes.oktaCbc],
    ['AES-256-GCM', shapes.oktaGcm],
  ])('Okta: signed response and signed assertion, %s', async (name, shape) => {
    const xml = signResponse(await encryptAssertionIn(signedAssertionXml(), sp, shape));
    harness.freshApp();
    const result = await harness.validate(toBase64(xml), withKey({ policy: 'both' }));
    expect(result.signedParts).toEqual(['response', 'assertion']);
    expect(result.decryption).toContain(`${name} content`);
  });

  it('Shibboleth: signed response, xenc11 RSA-OAEP with MGF1-SHA1, AES-128-GCM, EncryptedKey as a peer', async () => {
    const xml = signResponse(await encryptAssertionIn(buildResponse(NOW), sp, shapes.shibboleth));
    expect(xml).toContain('RetrievalMethod');
    expect(xml).toContain('xmlenc11#mgf1sha1');
    harness.freshApp();
    const result = await harness.validate(toBase64(xml), withKey({ policy: 'response' }));
    expect(result).toMatchObject({ subject: 'alice@example.org', signedParts: ['response'] });
    expect(result.decryption).toBe('AES-128-GCM content, RSA-OAEP (SHA-1, MGF1-SHA1) key transport');
  });

  it.each([
    [
      'rsa-oaep-mgf1p with a SHA-256 digest (MGF1 stays SHA-1)',
      { content: XENC.aes256gcm, keyTransport: XENC.rsaOaepMgf1p, digest: 'sha256' },
      'SHA-256, MGF1-SHA1',
    ],
    [
      'xenc11 rsa-oaep with SHA-256 and MGF1-SHA256',
      { content: XENC.aes128cbc, keyTransport: XENC.rsaOaep11, digest: 'sha256', mgf: 'sha256' },
      'SHA-256, MGF1-SHA256',
    ],
  ] as const)('decrypts %s', async (_name, shape, named) => {
    harness.freshApp();
    const xml = await encryptAssertionIn(signedAssertionXml(), sp, shape);
    expect((await harness.validate(toBase64(xml), withKey())).decryption).toContain(named);
  });
});

describe('encrypted assertions: signatures on the decrypted content', () => {
  it('requires the signature the policy asks for on the decrypted assertion', async () => {
    const unsignedInside = signResponse(await encryptAssertionIn(buildResponse(NOW), sp, shapes.oktaGcm));
    expect((await harness.rejection(toBase64(unsignedInside), withKey({ policy: 'assertion' }))).check).toBe('signature');
    harness.freshApp();
    expect((await harness.validate(toBase64(unsignedInside), withKey({ policy: 'either' }))).signedParts).toEqual(['response']);
  });

  it('refuses an encrypted assertion wrapping one signed by another IdP', async () => {
    const foreign = await encryptAssertionIn(signedAssertionXml({}, otherIdp), sp, shapes.entra);
    expect((await harness.rejection(toBase64(foreign), withKey())).check).toBe('certificate');
    // Even inside a response our IdP signed: every signature present must verify.
    const wrapped = signResponse(foreign);
    expect((await harness.rejection(toBase64(wrapped), withKey({ policy: 'either' }))).check).toBe('certificate');
  });

  it('checks the response signature before decrypting: altered cipher text under it is a signature failure', async () => {
    const xml = signResponse(await encryptAssertionIn(signedAssertionXml(), sp, shapes.oktaCbc));
    const altered = xml.replace(
      /(<xenc:CipherData>\s*<xenc:CipherValue>)(.)/,
      (_m, head: string, c: string) => `${head}${c === 'A' ? 'B' : 'A'}`,
    );
    expect(altered).not.toBe(xml);
    expect((await harness.rejection(toBase64(altered), withKey({ policy: 'both' }))).check).toBe('signature');
  });

  it('reads nothing from a forged assertion hidden in the decrypted assertion Advice', async () => {
    const forged = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(
      buildResponse(NOW, { assertionId: '_forged', nameId: 'admin@example.org' }),
    )?.[0];
    const advised = buildResponse(NOW).replace('<saml:AuthnStatement', `<saml:Advice>${forged}</saml:Advice><saml:AuthnStatement`);
    const xml = await encryptAssertionIn(signElement(advised, '_assert1', idp), sp, shapes.oktaGcm);
    harness.freshApp();
    expect((await harness.validate(toBase64(xml), withKey())).subject).toBe('alice@example.org');
  });
});

describe('encrypted assertions: bad input is refused with the reason', () => {
  const refusal = async (mutate: (xml: string) => string, shape: EncryptionShape = shapes.entra, overrides: Overrides = withKey()) =>
    await harness.rejection(toBase64(mutate(await encryptAssertionIn(signedAssertionXml(), sp, shape))), overrides);

  it('no SP decryption key configured', async () => {
    const refused = await refusal((xml) => xml, shapes.entra, {});
    expect(refused).toMatchObject({ check: 'decryption', message: expect.stringMatching(/no SP decryption key/) });
  });

  it('the wrong key (encrypted for another SP)', async () => {
    const xml = await encryptAssertionIn(signedAssertionXml(), otherSp, shapes.entra);
    const refused = await harness.rejection(toBase64(xml), withKey());
    expect(refused).toMatchObject({ check: 'decryption', message: expect.stringMatching(/could not be decrypted/) });
  });

  it.each([
    ['AES-CBC', shapes.entra],
    ['AES-GCM', shapes.oktaGcm],
  ])('truncated content cipher text (%s)', async (_name, shape) => {
    const truncate = (xml: string) =>
      xml.replace(
        /(<\/xenc:EncryptionMethod>|<xenc:EncryptionMethod [^>]*\/>)([\s\S]*<xenc:CipherValue>)([A-Za-z0-9+/=]+)(<\/xenc:CipherValue>\s*<\/xenc:CipherData>\s*<\/xenc:EncryptedData>)/,
        (_m, a, b, value: string, d) => {
          const kept = value.slice(0, Math.floor(value.length / 2 / 4) * 4);
          return `${a}${b}${kept}${d}`;
        },
      );
    const refused = await refusal(truncate, shape);
    expect(refused).toMatchObject({ check: 'decryption', message: expect.stringMatching(/could not be decrypted/) });
  });

  it('a truncated encrypted key', async () => {
    const refused = await refusal((xml) =>
      xml.replace(/(<e:CipherValue>)([A-Za-z0-9+/=]+)/, (_m, a, value: string) => `${a}${value.slice(0, 40)}`),
    );
    expect(refused).toMatchObject({ check: 'decryption', message: expect.stringMatching(/could not be decrypted/) });
  });

  it.each([
    [
      'Triple DES content',
      { content: XENC.tripledes, keyTransport: XENC.rsaOaepMgf1p },
      /content encryption .*tripledes-cbc is not supported/,
    ],
  ] as const)('an unsupported algorithm: %s', async (_name, shape, reason) => {
    // Node 20 may lack 3DES in its OpenSSL build; the algorithm is named in clear text, so rename instead.
    const xml = (await encryptAssertionIn(signedAssertionXml(), sp, shapes.entra)).replace(XENC.aes256cbc, shape.content);
    expect(await harness.rejection(toBase64(xml), withKey())).toMatchObject({
      check: 'decryption',
      message: expect.stringMatching(reason),
    });
  });

  it('an unknown content algorithm, digest or mask generation function', async () => {
    const aes192 = await refusal((xml) => xml.replace(XENC.aes256cbc, 'http://www.w3.org/2001/04/xmlenc#aes192-cbc'));
    expect(aes192.message).toMatch(/aes192-cbc is not supported/);
    const md5 = await refusal((xml) => xml.replace('http://www.w3.org/2000/09/xmldsig#sha1', 'http://www.w3.org/2001/04/xmldsig-more#md5'));
    expect(md5.message).toMatch(/digest .*md5 is not supported/);
    const mgf = await refusal((xml) => xml.replace('xmlenc11#mgf1sha1', 'xmlenc11#mgf1md5'), shapes.shibboleth);
    expect(mgf.message).toMatch(/mask generation .*mgf1md5 is not supported/);
  });

  it('an EncryptedAssertion beside a plain Assertion, or two EncryptedData', async () => {
    const encrypted = await encryptAssertionIn(signedAssertionXml(), sp, shapes.entra);
    const plain = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(signedAssertionXml({ assertionId: '_assert2' }))?.[0] ?? '';
    expect((await harness.rejection(toBase64(encrypted.replace('</samlp:Response>', `${plain}</samlp:Response>`)), withKey())).check).toBe(
      'structure',
    );
    const data = /<xenc:EncryptedData[\s\S]*<\/xenc:EncryptedData>/.exec(encrypted)?.[0] ?? '';
    const doubled = encrypted.replace('</saml:EncryptedAssertion>', `${data}</saml:EncryptedAssertion>`);
    expect((await harness.rejection(toBase64(doubled), withKey())).message).toMatch(/exactly one EncryptedData/);
  });

  it('huge or deeply nested EncryptedData hits the same size and depth limits', async () => {
    const encrypted = await encryptAssertionIn(signedAssertionXml(), sp, shapes.entra);
    const huge = encrypted.replace('<xenc:CipherValue>', `<xenc:CipherValue>${'A'.repeat(400_000)}`);
    expect((await harness.rejection(toBase64(huge), withKey())).check).toBe('size');
    const deep = encrypted.replace('<xenc:CipherData>', `${'<x>'.repeat(100)}${'</x>'.repeat(100)}<xenc:CipherData>`);
    expect((await harness.rejection(toBase64(deep), withKey())).check).toBe('xml');
  });

  it('plaintext nested beyond the depth limit, encrypted with the public SP certificate, is refused', async () => {
    // Anyone holding the SP certificate can encrypt: the decrypted text gets the same limits as the response.
    const bomb = buildResponse(NOW).replace(
      '<saml:AuthnStatement',
      `${'<saml:Advice>'.repeat(60)}${'</saml:Advice>'.repeat(60)}<saml:AuthnStatement`,
    );
    const xml = await encryptAssertionIn(bomb, sp, shapes.oktaGcm);
    const refused = await harness.rejection(toBase64(xml), withKey());
    expect(refused).toMatchObject({ check: 'decryption', message: expect.stringMatching(/size and depth limits/) });
  });
});
