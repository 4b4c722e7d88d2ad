import { type FormEvent, useState } from 'react';
import { downloadBlob } from '../../components/download.ts';
import { type SamlView, useSsoLogin } from '../../state/sso-login.ts';
import { SamlTestResult } from './SamlTestResult.tsx';

/** SAML 2.0: the SP facts to give the IdP, the IdP trust settings, and a test of a pasted response. */
export const SamlSection = ({ saml }: { saml: SamlView }) => {
  const { busy, samlTest, saveSaml, testSamlResponse, spMetadata } = useSsoLogin();
  const [metadataUrl, setMetadataUrl] = useState(saml.settings.idp_metadata_url);
  const [metadataXml, setMetadataXml] = useState(saml.settings.idp_metadata_xml);
  const [issuer, setIssuer] = useState(saml.settings.idp_issuer);
  const [policy, setPolicy] = useState(saml.options.signaturePolicy);
  const [skew, setSkew] = useState(String(saml.options.clockSkewSeconds));
  const [allowSha1, setAllowSha1] = useState(saml.options.allowSha1);
  const [idpInitiated, setIdpInitiated] = useState(saml.options.allowIdpInitiated);
  const [tier, setTier] = useState(saml.options.sessionTier);
  const [spEntityId, setSpEntityId] = useState(saml.settings.sp_entity_id);
  const [pasted, setPasted] = useState('');
  const save = (event: FormEvent) => {
    event.preventDefault();
    void saveSaml({
      idp_metadata_url: metadataUrl.trim(),
      idp_metadata_xml: metadataXml.trim(),
      idp_issuer: issuer.trim(),
      sp_entity_id: spEntityId.trim(),
      options: {
        signaturePolicy: policy,
        clockSkewSeconds: Number(skew) || 0,
        allowSha1,
        allowIdpInitiated: idpInitiated,
        sessionTier: tier,
      },
    });
  };
  const onFile = async (file: File | undefined) => setMetadataXml(file ? await file.text() : metadataXml);
  return (
    <section className="card idp-section" aria-labelledby="saml-title">
      <h2 id="saml-title">SAML 2.0</h2>
      <dl className="idp-facts">
        <dt>SP entity ID</dt>
        <dd>{saml.sp.entity_id}</dd>
        <dt>ACS URL (HTTP-POST)</dt>
        <dd>{saml.sp.acs_url}</dd>
        <dt>Assertion encryption</dt>
        <dd>{saml.sp.encryption.advertised ? 'key set; certificate in the SP metadata' : `off: ${saml.sp.encryption.problem}`}</dd>
      </dl>
      <button
        type="button"
        onClick={() => void spMetadata().then((xml) => xml && downloadBlob(xml, 'application/samlmetadata+xml', 'sp-metadata.xml'))}
      >
        Download SP metadata
      </button>
      {saml.idp.error ? (
        <p role="alert" className="alert">
          IdP: {saml.idp.error}
        </p>
      ) : (
        <p role="status" className="muted">
          IdP: {saml.idp.trusted_cert_count} trusted certificate(s){saml.idp.issuer ? `, issuer ${saml.idp.issuer}` : ''}.
        </p>
      )}
      <form className="settings-form" onSubmit={save}>
        <fieldset>
          <legend>Identity provider</legend>
          <label className="field">
            IdP metadata URL
            <input
              type="url"
              value={metadataUrl}
              onChange={(e) => setMetadataUrl(e.target.value)}
              placeholder="https://idp.example.com/metadata"
            />
          </label>
          <label className="field">
            IdP metadata file
            <input
              type="file"
              accept=".xml,application/xml,application/samlmetadata+xml"
              onChange={(e) => void onFile(e.target.files?.[0])}
            />
          </label>
          <label className="field idp-wide">
            IdP metadata XML
            <textarea rows={4} value={metadataXml} onChange={(e) => setMetadataXml(e.target.value)} />
          </label>
          <label className="field">
            Expected IdP issuer (empty: from metadata)
            <input value={issuer} onChange={(e) => setIssuer(e.target.value)} />
          </label>
          <label className="field">
            Signature policy
            <select value={policy} onChange={(e) => setPolicy(e.target.value as typeof policy)}>
              <option value="assertion">Assertion must be signed</option>
              <option value="response">Response must be signed</option>
              <option value="either">Either is signed</option>
              <option value="both">Both are signed</option>
            </select>
          </label>
          <label className="field">
            Allowed clock skew (seconds)
            <input type="number" min={0} max={600} value={skew} onChange={(e) => setSkew(e.target.value)} />
          </label>
          <label className="field">
            SP entity ID (empty: this server's /saml/metadata URL)
            <input value={spEntityId} onChange={(e) => setSpEntityId(e.target.value)} />
          </label>
          <label className="field">
            Tier of SSO sessions (SAML and OIDC)
            <select value={tier} onChange={(e) => setTier(e.target.value as typeof tier)}>
              <option value="free">free</option>
              <option value="api">api</option>
              <option value="admin">admin</option>
            </select>
          </label>
          <label className="field">
            Allow IdP-initiated login (not recommended: it cannot be tied to the browser that signs in)
            <input type="checkbox" checked={idpInitiated} onChange={(e) => setIdpInitiated(e.target.checked)} />
          </label>
          <label className="field">
            Allow SHA-1 signatures (not recommended)
            <input type="checkbox" checked={allowSha1} onChange={(e) => setAllowSha1(e.target.checked)} />
          </label>
        </fieldset>
        <button type="submit" className="primary" disabled={busy}>
          Save SAML settings
        </button>
      </form>
      <h3>Test login</h3>
      <div className="stack">
        <label className="field">
          SAMLResponse to test (base64, as posted by the IdP)
          <textarea rows={3} value={pasted} onChange={(e) => setPasted(e.target.value)} />
        </label>
        <div className="row">
          <button type="button" disabled={busy || pasted.trim() === ''} onClick={() => void testSamlResponse(pasted.trim())}>
            Test SAML response
          </button>
          <a className="button" href="/saml/login">
            Sign in with SAML
          </a>
        </div>
        {samlTest ? <SamlTestResult report={samlTest} /> : null}
      </div>
    </section>
  );
};
