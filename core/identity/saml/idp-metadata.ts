import type { Element } from '@xmldom/xmldom';
import { type App, service } from '../../app.ts';
import { attr, childrenNamed, descendantsNamed, NS } from './dom.ts';
import { failedCheckOf, samlError } from './errors.ts';
import { allowedAlgorithms, verifyEnvelopedSignature } from './signature.ts';
import { parseUntrustedXml } from './xml-input.ts';

/** What the SP takes from IdP metadata: who the IdP is, which keys sign, and where to send AuthnRequests. */
export type IdpMetadata = {
  readonly entityId: string;
  readonly signingCertsPem: readonly string[];
  readonly ssoRedirectUrl: string | undefined;
};

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

export const toPem = (base64: string): string => {
  const body = base64.replace(/\s+/g, '');
  return `-----BEGIN CERTIFICATE-----\n${body.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
};

const METADATA_LIMITS = { maxDepth: 64 } as const;

/**
 * With a metadata signing certificate configured, the metadata root must carry an enveloped signature (one
 * Reference to the root's ID, RSA-SHA256 or stronger) that verifies with that certificate; only the XML the
 * signature covers is read afterwards. Failures become `config` errors naming the metadata.
 */
const verifiedMetadataXml = (xml: string, maxBytes: number, signingCertPem: string): string => {
  const root = parseUntrustedXml(xml, { maxBytes, ...METADATA_LIMITS }).documentElement as Element;
  try {
    const covered = verifyEnvelopedSignature(xml, root, 'IdP metadata', [signingCertPem], allowedAlgorithms(false));
    if (covered === undefined) throw samlError('signature', 'the IdP metadata is not signed');
    return covered;
  } catch (error) {
    if (failedCheckOf(error) === undefined) throw error;
    throw samlError('config', `the IdP metadata signature was not accepted (${(error as Error).message})`, error);
  }
};

/**
 * Reads an IdP EntityDescriptor (or the first IdP in an EntitiesDescriptor). Every signing certificate listed
 * is trusted (key rollover publishes old and new side by side). The metadata's own signature is checked when a
 * metadata signing certificate is configured; otherwise trust comes from where the admin got it (an https URL
 * they configured, or pasted XML).
 */
export const parseIdpMetadata = (xml: string, maxBytes: number, signingCertPem = ''): IdpMetadata => {
  const trusted = signingCertPem === '' ? xml : verifiedMetadataXml(xml, maxBytes, signingCertPem);
  const doc = parseUntrustedXml(trusted, { maxBytes, ...METADATA_LIMITS });
  const idp = descendantsNamed(doc, NS.metadata, 'IDPSSODescriptor')[0];
  const entity = idp?.parentNode as Element | null | undefined;
  const entityId = entity ? attr(entity, 'entityID') : undefined;
  if (idp === undefined || entityId === undefined) {
    throw samlError('config', 'the IdP metadata has no EntityDescriptor with an IDPSSODescriptor');
  }
  const signingCertsPem = childrenNamed(idp, NS.metadata, 'KeyDescriptor')
    .filter((descriptor) => (attr(descriptor, 'use') ?? 'signing') === 'signing')
    .flatMap((descriptor) => descendantsNamed(descriptor, NS.dsig, 'X509Certificate'))
    .map((cert) => toPem(cert.textContent ?? ''));
  if (signingCertsPem.length === 0) throw samlError('config', 'the IdP metadata lists no signing certificate');
  const redirect = childrenNamed(idp, NS.metadata, 'SingleSignOnService').find(
    (endpoint) => attr(endpoint, 'Binding') === REDIRECT_BINDING,
  );
  return { entityId, signingCertsPem, ssoRedirectUrl: redirect && attr(redirect, 'Location') };
};

type Cached = { readonly metadata: IdpMetadata; readonly fetchedAt: number };
const cache = (app: App) => service(app, 'saml.idpMetadataCache', () => new Map<string, Cached>());

/** Reads a response body up to `maxBytes`, aborting (not buffering) anything larger. */
const readCapped = async (response: Response, maxBytes: number): Promise<string> => {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw samlError('config', `the IdP metadata is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
};

/** Fetches IdP metadata (SVC_SAML_IDP_METADATA_URL) with a timeout and a size cap, cached per URL. */
export const fetchIdpMetadata = async (
  app: App,
  url: string,
  limits: { timeoutMs: number; maxBytes: number; cacheSeconds: number; signingCertPem: string },
): Promise<IdpMetadata> => {
  const now = app.now().getTime();
  // Metadata verified under one signing certificate is not reused once another is configured.
  const cacheKey = `${url}\n${limits.signingCertPem}`;
  const hit = cache(app).get(cacheKey);
  if (hit !== undefined && now - hit.fetchedAt < limits.cacheSeconds * 1000) return hit.metadata;
  let text: string;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(limits.timeoutMs), redirect: 'error' });
    if (!response.ok) throw samlError('config', `the IdP metadata URL answered HTTP ${response.status}`);
    text = await readCapped(response, limits.maxBytes);
  } catch (error) {
    if (error instanceof Error && error.name === 'SFIdentityError') throw error;
    const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'could not be fetched';
    throw samlError('config', `the IdP metadata URL ${reason}`, error);
  }
  const metadata = parseIdpMetadata(text, limits.maxBytes, limits.signingCertPem);
  cache(app).set(cacheKey, { metadata, fetchedAt: now });
  return metadata;
};
