import * as oidc from 'openid-client';
import { type App, service } from '../../app.ts';
import { SFIdentityError } from '../../errors.ts';

const cacheSeconds = 3600;
const requestTimeoutSeconds = 10;

type CachedMetadata = { readonly metadata: oidc.ServerMetadata; readonly fetchedAt: number };
const metadataCache = (app: App) => service(app, 'oidc.discoveryCache', () => new Map<string, CachedMetadata>());

/** The fetch the OIDC client uses; tests replace it (app.services 'oidc.fetch') to tamper with responses. */
export const oidcFetch = (app: App): oidc.CustomFetch =>
  service(app, 'oidc.fetch', (): oidc.CustomFetch => (url, options) => fetch(url, options as RequestInit));

/** An OIDC error that names the failed check, like the SAML validator's. */
export const oidcError = (check: string, message: string, cause?: unknown): SFIdentityError =>
  new SFIdentityError(`OIDC ${check} check failed: ${message}`, {
    code: check === 'config' ? 'UNAVAILABLE' : 'UNAUTHENTICATED',
    detail: { check },
    ...(cause === undefined ? {} : { cause }),
  });

/** Plain http is accepted only for a provider on this machine (local IdPs, tests); anything else needs https. */
export const isLoopbackHttp = (url: URL): boolean => url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

export const parseProviderUrl = (providerUrl: string): URL => {
  let url: URL;
  try {
    url = new URL(providerUrl);
  } catch (error) {
    throw oidcError('config', 'the provider URL is not a valid URL', error);
  }
  if (url.protocol !== 'https:' && !isLoopbackHttp(url)) {
    throw oidcError('config', 'the provider URL must use https (plain http only on 127.0.0.1/localhost)');
  }
  return url;
};

export const describeOidcError = (error: unknown): string => {
  if (!(error instanceof Error)) return 'unknown error';
  const code = (error as { code?: unknown; error?: unknown }).error ?? (error as { code?: unknown }).code;
  return `${typeof code === 'string' ? `${code}: ` : ''}${error.message}`.slice(0, 300);
};

/** Discovery document of a provider (issuer URL or its /.well-known URL), cached per URL for an hour. */
export const discoverProvider = async (app: App, providerUrl: string): Promise<oidc.ServerMetadata> => {
  const url = parseProviderUrl(providerUrl);
  const cache = metadataCache(app);
  const hit = cache.get(url.href);
  const now = app.now().getTime();
  if (hit !== undefined && now - hit.fetchedAt < cacheSeconds * 1000) return hit.metadata;
  try {
    const config = await oidc.discovery(url, 'discovery-probe', undefined, oidc.None(), {
      timeout: requestTimeoutSeconds,
      [oidc.customFetch]: oidcFetch(app),
      ...(isLoopbackHttp(url) ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
    const metadata = { ...config.serverMetadata() };
    cache.set(url.href, { metadata, fetchedAt: now });
    return metadata;
  } catch (error) {
    throw oidcError('discovery', `could not load the provider's discovery document (${describeOidcError(error)})`, error);
  }
};

/**
 * A client configuration for one provider and client id. The secret (SVC_OIDC_CLIENT_SECRET / the secret
 * store) is sent with client_secret_basic and never logged; without one the client is public (PKCE only).
 */
export const clientConfiguration = async (app: App, providerUrl: string, clientId: string): Promise<oidc.Configuration> => {
  const metadata = await discoverProvider(app, providerUrl);
  const secret = app.settings.secret('oidcClientSecret');
  const config = new oidc.Configuration(metadata, clientId, secret, secret === undefined ? oidc.None() : oidc.ClientSecretBasic(secret));
  config.timeout = requestTimeoutSeconds;
  config[oidc.customFetch] = oidcFetch(app);
  // Verify the ID token's JWS signature against the provider's JWKS too, not only TLS to the token endpoint.
  oidc.enableNonRepudiationChecks(config);
  if (isLoopbackHttp(parseProviderUrl(providerUrl))) oidc.allowInsecureRequests(config);
  return config;
};
