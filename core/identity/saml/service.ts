import type { App } from '../../app.ts';
import { samlLoginIdentity } from './acs-handoff.ts';
import { authnRequestRedirectUrl } from './authn-request.ts';
import { loadSamlConfig, type SamlConfig, spOrigin } from './config.ts';
import { failedCheckOf, samlError, type SamlCheck } from './errors.ts';
import { fetchIdpMetadata, type IdpMetadata, parseIdpMetadata } from './idp-metadata.ts';
import { allowedAlgorithms } from './signature.ts';
import { spDecryption } from './sp-decryption.ts';
import { buildSpMetadata } from './sp-metadata.ts';
import { checkLoginBinding } from '../sessions/login-binding.ts';
import { completeSsoLogin } from './sso-login.ts';
import { assertionSeen, createRequestId, peekRequest, type SamlTracker, samlTracker } from './store.ts';
import { type SamlValidatorConfig, type ValidatedSamlResponse, validateSamlResponse } from './validator.ts';

/** The listener's origin when called from an HTTP route; else the configured base URL or the local port. */
export type SamlCallOptions = { readonly origin?: string | undefined };

/** This SP's entity id and ACS URL. */
export const spEndpoints = (app: App, config: SamlConfig, options: SamlCallOptions = {}) => {
  const base = spOrigin(app, config, options.origin);
  const configured = app.settings.get().samlSpEntityId;
  return { entityId: configured === '' ? `${base}/saml/metadata` : configured, acsUrl: `${base}/saml/acs` };
};

/** Spec 4.4 saml_metadata: this service provider's SAML 2.0 metadata XML. */
export const samlMetadata = async (app: App, options: SamlCallOptions = {}): Promise<string> => {
  const config = await loadSamlConfig(app);
  const { entityId, acsUrl } = spEndpoints(app, config, options);
  return buildSpMetadata({
    entityId,
    acsUrl,
    signingCertPem: config.spSigningCertPem,
    encryptionCertPem: spDecryption(app).advertisedCertPem,
    authnRequestsSigned: config.authnRequestsSigned,
    wantAssertionsSigned: config.signaturePolicy === 'assertion' || config.signaturePolicy === 'both',
  });
};

/** The IdP as configured: pasted metadata XML, the metadata URL (fetched, cached), plus any extra PEMs. */
export const resolveIdp = async (app: App, config: SamlConfig) => {
  const settings = app.settings.get();
  const sources: IdpMetadata[] = [];
  const signingCertPem = settings.samlIdpMetadataSigningCert;
  if (settings.samlIdpMetadataXml !== '') {
    sources.push(parseIdpMetadata(settings.samlIdpMetadataXml, config.metadataMaxBytes, signingCertPem));
  }
  if (settings.samlIdpMetadataUrl !== '') {
    sources.push(
      await fetchIdpMetadata(app, settings.samlIdpMetadataUrl, {
        timeoutMs: config.metadataTimeoutMs,
        maxBytes: config.metadataMaxBytes,
        cacheSeconds: config.metadataCacheSeconds,
        signingCertPem,
      }),
    );
  }
  const certs = [...new Set([...config.idpCertsPem, ...sources.flatMap((source) => source.signingCertsPem)])];
  const issuer = settings.samlIdpIssuer !== '' ? settings.samlIdpIssuer : (sources[0]?.entityId ?? '');
  const ssoUrl = sources.find((source) => source.ssoRedirectUrl !== undefined)?.ssoRedirectUrl;
  return { certs, issuer, ssoUrl };
};

/** Everything the validator needs, from settings, stored options and IdP metadata. */
export const samlValidatorConfig = async (app: App, options: SamlCallOptions = {}): Promise<SamlValidatorConfig> => {
  const config = await loadSamlConfig(app);
  const idp = await resolveIdp(app, config);
  const { entityId, acsUrl } = spEndpoints(app, config, options);
  return {
    trustedCerts: idp.certs,
    expectedIssuer: idp.issuer,
    audience: entityId,
    acsUrl,
    signaturePolicy: config.signaturePolicy,
    algorithms: allowedAlgorithms(config.allowSha1),
    clockSkewMs: config.clockSkewSeconds * 1000,
    now: app.now,
    allowIdpInitiated: config.allowIdpInitiated,
    limits: { maxBytes: config.maxResponseBytes, maxDepth: config.maxXmlDepth },
    decryptionKeyPem: spDecryption(app).keyPem,
  };
};

export type SamlLogin = {
  readonly subject: string;
  readonly email: string;
  readonly session_jwt: string;
  readonly session_id: string;
  readonly tier: 'free' | 'api' | 'admin';
};

/** Validates a SAMLResponse (consuming its request id and remembering its assertion id); SFIdentityError otherwise. */
export const acceptSamlResponse = async (app: App, samlResponse: string, options: SamlCallOptions = {}): Promise<ValidatedSamlResponse> => {
  const validated = await validateSamlResponse(samlResponse, await samlValidatorConfig(app, options), samlTracker(app));
  app.log.info(
    {
      check: 'passed',
      signed: validated.signedParts,
      encrypted: validated.decryption !== undefined,
      solicited: validated.request !== undefined,
    },
    'SAML response accepted',
  );
  return validated;
};

/** Starts the SSO session of an accepted login; the HTTP route needs the session id and tier too. */
export const finishSamlLogin = async (app: App, login: { subject: string; email: string; idpSessionId: string }): Promise<SamlLogin> => {
  const sso = await completeSsoLogin(app, { ...login, amr: 'saml' });
  return { subject: login.subject, email: login.email, session_jwt: sso.session_jwt, session_id: sso.session.session_id, tier: sso.tier };
};

/**
 * Spec 4.4 saml_acs: validates a base64 SAMLResponse (every check in docs/saml-validator.md) and returns the
 * subject, email and a short-lived session JWT bound to a new SSO session; SFIdentityError otherwise. An API
 * completion: a Response to a login a browser started completes only in that browser (`/saml/complete`).
 */
export const samlAcs = async (
  app: App,
  samlResponse: string,
  options: SamlCallOptions & { relayState?: string } = {},
): Promise<{ subject: string; email: string; session_jwt: string }> => {
  const validated = await acceptSamlResponse(app, samlResponse, options);
  if (validated.request !== undefined) checkLoginBinding(validated.request.browserBinding, undefined);
  const { subject, email, session_jwt } = await finishSamlLogin(app, samlLoginIdentity(validated));
  return { subject, email, session_jwt };
};

/** Read-only tracker for the test tool: checks InResponseTo and replay without consuming anything. */
const dryRunTracker = (app: App): SamlTracker => ({
  consumeRequest: (id) => peekRequest(app, id),
  rememberAssertion: async (id) => !(await assertionSeen(app, id)),
});

export type SamlTestReport =
  | {
      readonly ok: true;
      readonly subject: string;
      readonly email: string;
      readonly issuer: string;
      readonly signed_parts: readonly string[];
      /** How the assertion was decrypted; null when it arrived unencrypted. */
      readonly decryption: string | null;
    }
  | { readonly ok: false; readonly check: SamlCheck; readonly message: string };

/** Validates a pasted SAMLResponse without logging anyone in, and says which check failed and why. */
export const samlTestResponse = async (app: App, samlResponse: string, options: SamlCallOptions = {}): Promise<SamlTestReport> => {
  try {
    const result: ValidatedSamlResponse = await validateSamlResponse(
      samlResponse,
      await samlValidatorConfig(app, options),
      dryRunTracker(app),
    );
    return {
      ok: true,
      subject: result.subject,
      email: result.email,
      issuer: result.issuer,
      signed_parts: result.signedParts,
      decryption: result.decryption ?? null,
    };
  } catch (error) {
    const check = failedCheckOf(error);
    if (check === undefined) throw error;
    return { ok: false, check, message: (error as Error).message };
  }
};

/**
 * SP-initiated login: a stored request id (for InResponseTo) and the IdP redirect URL carrying the AuthnRequest.
 * `browserBinding` (the hash of the starting browser's login cookie) ties the request to that browser.
 */
export const samlLoginRedirect = async (
  app: App,
  options: SamlCallOptions & { relayState?: string | undefined; browserBinding?: string | undefined } = {},
): Promise<{ url: string; request_id: string }> => {
  const config = await loadSamlConfig(app);
  const idp = await resolveIdp(app, config);
  if (idp.ssoUrl === undefined) throw samlError('config', 'the IdP metadata has no HTTP-Redirect SingleSignOnService');
  const { entityId, acsUrl } = spEndpoints(app, config, options);
  const signingKeyPem = config.authnRequestsSigned ? app.settings.secret('samlSpSigningKey') : undefined;
  if (config.authnRequestsSigned && signingKeyPem === undefined) {
    throw samlError('config', 'AuthnRequest signing is on but no SP signing key is set (SVC_SAML_SP_SIGNING_KEY)');
  }
  const request_id = await createRequestId(app, config.requestTtlSeconds, {
    relayState: options.relayState,
    browserBinding: options.browserBinding,
  });
  const url = authnRequestRedirectUrl({
    id: request_id,
    issueInstant: app.now(),
    destination: idp.ssoUrl,
    acsUrl,
    spEntityId: entityId,
    relayState: options.relayState,
    signingKeyPem,
  });
  return { url, request_id };
};
