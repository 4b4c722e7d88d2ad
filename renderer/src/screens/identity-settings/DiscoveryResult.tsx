import type { DiscoveryReport } from '../../state/sso-login.ts';

/** The outcome of OIDC discovery: the provider's issuer and what it supports, or why it failed. */
export const DiscoveryResult = ({ report }: { report: DiscoveryReport }) =>
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
