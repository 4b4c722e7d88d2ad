import { describe, expect, it } from 'vitest';
import { invoke } from '../../ops/dispatch.ts';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { buildResponse, idpMetadataXml, makeTestIdp, signElement, toBase64 } from './test/idp.ts';

const actor = { kind: 'local', id: 'test', tier: 'admin', scopes: [] } as const;
describe.each(testBackends)('SAML ops on $name', (backend) => {
  const t = appPerTest(backend);
  it('configures the IdP, reports its status, serves metadata and tests a pasted response', async () => {
    const { app } = t();
    const idp = makeTestIdp();
    const call = (name: string, input: unknown) => invoke(name, input, { app, actor });
    const before = (await call('identity.samlGetConfig', {})) as { idp: { error: string | null; trusted_cert_count: number } };
    expect(before.idp.trusted_cert_count).toBe(0);
    await expect(call('identity.samlSetConfig', { idp_metadata_xml: '<not-metadata/>' })).rejects.toThrow(/IDPSSODescriptor/);
    const after = (await call('identity.samlSetConfig', {
      idp_metadata_xml: idpMetadataXml([idp.cert]),
      options: { spBaseUrl: 'https://sp.example.test', clockSkewSeconds: 30 },
    })) as { idp: { trusted_cert_count: number; issuer: string }; options: { clockSkewSeconds: number; signaturePolicy: string } };
    expect(after.idp).toMatchObject({ trusted_cert_count: 1, issuer: 'https://idp.example.test/metadata' });
    expect(after.options).toMatchObject({ clockSkewSeconds: 30, signaturePolicy: 'assertion' });
    expect(await call('identity.samlMetadata', {})).toContain('https://sp.example.test/saml/acs');
    const response = toBase64(signElement(buildResponse(new Date(), { audience: 'https://wrong.example' }), '_assert1', idp));
    expect(await call('identity.samlTestResponse', { saml_response: response })).toMatchObject({ ok: false, check: 'audience' });
  });
});
