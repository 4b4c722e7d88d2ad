import { z } from 'zod';
import { type App, service } from '../../app.ts';

export const signaturePolicies = ['response', 'assertion', 'either', 'both'] as const;
export type SignaturePolicy = (typeof signaturePolicies)[number];

/**
 * The SAML validator options an admin can change (stored in the database, table saml_config). IdP metadata URL/XML,
 * SP entity id and expected issuer are ordinary settings (settings-schema.ts) because the environment can set
 * them. Every option is documented in docs/saml-validator.md.
 */
export const samlConfigSchema = z.object({
  /** Extra trusted IdP signing certificates (PEM), added to those of the IdP metadata; several for rotation. */
  idpCertsPem: z.array(z.string().min(1).max(20_000)).max(10).default([]),
  signaturePolicy: z.enum(signaturePolicies).default('assertion'),
  allowSha1: z.boolean().default(false),
  clockSkewSeconds: z.number().int().min(0).max(600).default(60),
  /** Accept IdP-initiated (unsolicited) responses, i.e. ones without InResponseTo: an opt-in, since no browser binding is possible. */
  allowIdpInitiated: z.boolean().default(false),
  /** How long an SP-initiated AuthnRequest id stays acceptable as InResponseTo. */
  requestTtlSeconds: z.number().int().min(30).max(3600).default(600),
  maxResponseBytes: z.number().int().min(4096).max(5_000_000).default(262_144),
  maxXmlDepth: z.number().int().min(8).max(200).default(32),
  /** Tier of the session JWT a SAML login yields. */
  sessionTier: z.enum(['free', 'api', 'admin']).default('free'),
  /** Public base URL of this service (e.g. https://workbench.example.org); '' = the HTTP listener's origin. */
  spBaseUrl: z.string().url().or(z.literal('')).default(''),
  /** SP signing certificate (PEM) published in the metadata; '' = none. */
  spSigningCertPem: z.string().max(20_000).default(''),
  /** Sign AuthnRequests (redirect binding, RSA-SHA256) with the secret samlSpSigningKey (SVC_SAML_SP_SIGNING_KEY). */
  authnRequestsSigned: z.boolean().default(false),
  metadataTimeoutMs: z.number().int().min(100).max(60_000).default(5000),
  metadataMaxBytes: z.number().int().min(1024).max(10_000_000).default(1_000_000),
  metadataCacheSeconds: z.number().int().min(0).max(86_400).default(3600),
});
export type SamlConfig = z.output<typeof samlConfigSchema>;
export const samlConfigPatchSchema = samlConfigSchema.partial();
export type SamlConfigPatch = z.input<typeof samlConfigPatchSchema>;

const configRow = z.object({ json: z.string() });
const selectConfig = 'SELECT json FROM saml_config WHERE id = 1';

/** Stored options with defaults filled in; unreadable ones (an older shape) give the defaults. */
const parseStored = (row: { json: string } | undefined): SamlConfig => {
  const parsed = samlConfigSchema.safeParse(row === undefined ? {} : JSON.parse(row.json));
  return parsed.success ? parsed.data : samlConfigSchema.parse({});
};

/** The stored validator options, defaults filled in. */
export const loadSamlConfig = async (app: App): Promise<SamlConfig> => parseStored(await app.database.one(configRow, selectConfig));

/**
 * The same, read synchronously from the SQLite connection: kept under its old name for callers that have not moved
 * to the asynchronous Database yet (core/posture/alerts.ts, another domain). Goes when they have.
 */
export const getSamlConfig = (app: App): SamlConfig => {
  const row = configRow.safeParse(app.db.prepare(selectConfig).get());
  return parseStored(row.success ? row.data : undefined);
};

/** Merges a patch into the stored options (validated) and returns the result; one transaction, so concurrent patches both land. */
export const setSamlConfig = async (app: App, patch: SamlConfigPatch): Promise<SamlConfig> => {
  const parsed = samlConfigPatchSchema.parse(patch);
  // Only the keys the caller sent: a partial schema still fills defaults for absent keys.
  const sent = Object.fromEntries(Object.entries(parsed).filter(([key]) => Object.hasOwn(patch, key)));
  return app.database.serialized('saml-config', async (tx) => {
    const next = samlConfigSchema.parse({ ...parseStored(await tx.one(configRow, selectConfig)), ...sent });
    await tx.run('INSERT INTO saml_config (id, json) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json', [
      JSON.stringify(next),
    ]);
    return next;
  });
};

/** The HTTP listener's origin, recorded by the SAML routes when the server mounts them (ops run without one). */
export const listenerOrigin = (app: App): { current: (() => string) | undefined } =>
  service(app, 'saml.listenerOrigin', () => ({ current: undefined as (() => string) | undefined }));

/** The service's public origin: the configured base URL, else the listener's, else the default local port. */
export const spOrigin = (app: App, config: SamlConfig, origin?: string): string => {
  if (config.spBaseUrl !== '') return config.spBaseUrl.replace(/\/+$/, '');
  const known = origin ?? listenerOrigin(app).current?.();
  if (known !== undefined) return known.replace(/\/+$/, '');
  return `http://127.0.0.1:${app.settings.get().httpPort}`;
};
