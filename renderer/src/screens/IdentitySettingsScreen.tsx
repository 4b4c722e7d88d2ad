import { type FormEvent, useEffect, useState } from 'react';
import { Page } from '../components/Page.tsx';
import { isDesktop } from '../state/session.ts';
import { type DiscoveryReport, type SamlTestReport, type SamlView, useSsoLogin } from '../state/sso-login.ts';
import './IdentitySettingsScreen.css';

/** What to do about each failed SAML check: the message says what failed, this says how to fix it. */
const samlHints: Record<string, string> = {
  config: 'Add the IdP metadata (URL or XML) so the workbench knows which certificates and issuer to trust.',
  size: 'The response is larger than the configured maximum; check the IdP sends one assertion, or raise the limit.',
  encoding: 'Paste the SAMLResponse form value exactly as sent (base64, UTF-8 XML).',
  xml: 'The response is not well-formed XML, has a DTD or several roots; it was probably altered on the way.',
  structure: 'Send exactly one Assertion (or EncryptedAssertion) per Response; extra or duplicated assertions are refused.',
  decryption:
    'Set the SP decryption key and encryption certificate (Settings), give the IdP the SP metadata, and use RSA-OAEP with AES-CBC or AES-GCM.',
  status: 'The IdP refused the login; look at its logs for the reason.',
  signature: 'Check the signature policy matches what the IdP signs (response, assertion, or both).',
  algorithm: 'Configure the IdP to sign with RSA-SHA256 or stronger, or allow SHA-1 explicitly.',
  certificate: 'The signing certificate is not trusted: refresh the IdP metadata after a certificate rollover.',
  issuer: 'Set the expected issuer to the IdP entity id shown in its metadata.',
  audience: 'Set the audience (SP entity id) in the IdP to the Entity ID shown here.',
  destination: 'Set the IdP ACS URL to the ACS URL shown here.',
  recipient: 'Set the IdP ACS URL to the ACS URL shown here.',
  time: 'Check the clocks of the IdP and this machine, or raise the allowed clock skew.',
  in_response_to: 'Start the login from the workbench again (requests expire), or allow IdP-initiated login.',
  replay: 'This response was already used; sign in again at the IdP.',
  subject: 'Make the IdP send a NameID and a bearer subject confirmation.',
  authn_statement: 'The assertion must record the login (AuthnStatement); configure the IdP for the Web Browser SSO profile.',
};

const download = (text: string, filename: string): void => {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/samlmetadata+xml' }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};

const SamlTestResult = ({ report }: { report: SamlTestReport }) =>
  report.ok ? (
    <div role="status" className="notice">
      <p>
        Valid response for <strong>{report.subject}</strong> ({report.email || 'no email'}).
      </p>
      <ul aria-label="Checks passed">
        <li>Decryption: {report.decryption ?? 'not encrypted'}</li>
        <li>Signed: {report.signed_parts.join(', ')}</li>
      </ul>
    </div>
  ) : (
    <div role="alert" className="alert">
      <p>
        Failed check: <strong>{report.check}</strong>. {report.message}
      </p>
      <p>What to do: {samlHints[report.check] ?? 'See docs/saml-validator.md.'}</p>
    </div>
  );

const DiscoveryResult = ({ report }: { report: DiscoveryReport }) =>
  report.ok ? (
    <div role="status" className="notice">
      <p>
        Provider <strong>{report.issuer}</strong> answered. PKCE S256: {report.pkce_s256 ? 'yes' : 'NO (required)'}; client_secret_basic:{' '}
        {report.client_secret_basic ? 'yes' : 'no'}.
      </p>
      <p className="muted">Token endpoint: {report.token_endpoint ?? 'none'}</p>
    </div>
  ) : (
    <p role="alert" className="alert">
      Discovery failed: {report.message} Check the provider URL (its /.well-known/openid-configuration must load from this machine).
    </p>
  );

const SamlSection = ({ saml }: { saml: SamlView }) => {
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
      <button type="button" onClick={() => void spMetadata().then((xml) => xml && download(xml, 'sp-metadata.xml'))}>
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

const OidcSection = () => {
  const { oidc, busy, discovery, saveOidc, testDiscovery, desktopLogin } = useSsoLogin();
  const [providerUrl, setProviderUrl] = useState(oidc?.providerUrl ?? '');
  const [clientId, setClientId] = useState(oidc?.clientId ?? '');
  const [redirectUri, setRedirectUri] = useState(oidc?.redirectUri ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const save = (event: FormEvent) => {
    event.preventDefault();
    void saveOidc({ providerUrl: providerUrl.trim(), clientId: clientId.trim(), redirectUri: redirectUri.trim(), clientSecret }).then(() =>
      setClientSecret(''),
    );
  };
  return (
    <section className="card idp-section" aria-labelledby="oidc-title">
      <h2 id="oidc-title">OpenID Connect</h2>
      {oidc && oidc.fromEnv.length > 0 ? <p className="muted">Set by the environment: {oidc.fromEnv.join(', ')}.</p> : null}
      <form className="settings-form" onSubmit={save}>
        <fieldset>
          <legend>Provider</legend>
          <label className="field">
            Provider URL
            <input
              type="url"
              value={providerUrl}
              onChange={(e) => setProviderUrl(e.target.value)}
              placeholder="https://login.example.com"
            />
          </label>
          <label className="field">
            Client ID
            <input value={clientId} onChange={(e) => setClientId(e.target.value)} />
          </label>
          <label className="field">
            Client secret (write-only{oidc?.secretSet ? ', currently set' : ', not set'})
            <input type="password" autoComplete="new-password" value={clientSecret} onChange={(e) => setClientSecret(e.target.value)} />
          </label>
          <label className="field">
            Redirect URI (empty: this server's /oidc/callback)
            <input type="url" value={redirectUri} onChange={(e) => setRedirectUri(e.target.value)} />
          </label>
        </fieldset>
        <div className="row">
          <button type="submit" className="primary" disabled={busy}>
            Save OIDC settings
          </button>
          <button type="button" disabled={busy} onClick={() => void testDiscovery()}>
            Test discovery
          </button>
          {isDesktop ? (
            <button type="button" disabled={busy} onClick={() => void desktopLogin()}>
              Test OIDC login in the system browser
            </button>
          ) : (
            <a className="button" href="/oidc/login">
              Test OIDC login
            </a>
          )}
        </div>
      </form>
      {discovery ? <DiscoveryResult report={discovery} /> : null}
    </section>
  );
};

/** SSO configuration: SAML IdP and SP metadata, OIDC provider, and tests that say which check failed. */
export const IdentitySettingsScreen = () => {
  const { saml, oidc, error, message, load } = useSsoLogin();
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <Page
      title="Identity Settings"
      description="Single sign-on through a SAML 2.0 identity provider or an OpenID Connect provider."
      error={error}
    >
      {message ? (
        <p role="status" className="notice">
          {message}
        </p>
      ) : null}
      {saml ? <SamlSection key={JSON.stringify(saml.settings)} saml={saml} /> : null}
      {oidc ? <OidcSection key={`${oidc.providerUrl}|${oidc.clientId}|${oidc.redirectUri}`} /> : null}
    </Page>
  );
};
