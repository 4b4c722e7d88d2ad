import { type FormEvent, useState } from 'react';
import { isDesktop } from '../../state/session.ts';
import { useSsoLogin } from '../../state/sso-login.ts';
import { DiscoveryResult } from './DiscoveryResult.tsx';

/** OpenID Connect: the provider, client and redirect, a discovery test and a test login. */
export const OidcSection = () => {
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
