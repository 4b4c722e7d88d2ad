import { useEffect } from 'react';
import { Page } from '../../components/Page.tsx';
import { useSsoLogin } from '../../state/sso-login.ts';
import { OidcSection } from './OidcSection.tsx';
import { SamlSection } from './SamlSection.tsx';
import './IdentitySettingsScreen.css';

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
