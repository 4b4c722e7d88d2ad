import { z } from 'zod';

/**
 * Every user-editable setting, its default, and the environment variable that overrides it. Secrets are not
 * here: they live in the SecretStore and are write-only from the renderer's side.
 */
export const settingsSchema = z.object({
  chatEndpoint: z.string().url().or(z.literal('')).default(''),
  chatModel: z.string().max(200).default(''),
  chatPiiFilter: z.enum(['off', 'redact', 'block']).default('off'),
  piiAction: z.enum(['redact', 'block', 'flag']).default('redact'),
  piiScoreThreshold: z.number().min(0).max(1).default(0),
  presidioUrl: z.string().url().or(z.literal('')).default(''),
  presidioMerge: z.boolean().default(false),
  httpEnabled: z.boolean().default(true),
  httpPort: z.number().int().min(0).max(65535).default(8765),
  bundleOutputDir: z.string().default(''),
  tsaUrl: z.string().url().or(z.literal('')).default(''),
  byosProvider: z.string().default(''),
  scimBaseUrl: z.string().url().or(z.literal('')).default(''),
  samlIdpMetadataUrl: z.string().url().or(z.literal('')).default(''),
  samlIdpMetadataXml: z.string().max(1_000_000).default(''),
  samlSpEntityId: z.string().default(''),
  samlIdpIssuer: z.string().default(''),
  oidcProviderUrl: z.string().url().or(z.literal('')).default(''),
  oidcClientId: z.string().default(''),
  oidcRedirectUri: z.string().url().or(z.literal('')).default(''),
  requireSso: z.enum(['off', 'saml', 'oidc']).default('off'),
});
export type Settings = z.output<typeof settingsSchema>;
export type SettingKey = keyof Settings;

/** Environment variables that override a setting (spec section 5 plus ours). */
export const settingsEnv: Readonly<Partial<Record<SettingKey, string>>> = {
  chatEndpoint: 'SVC_CHAT_ENDPOINT',
  chatModel: 'SVC_CHAT_MODEL',
  chatPiiFilter: 'SVC_CHAT_PII_FILTER',
  piiAction: 'SVC_PII_ACTION',
  presidioUrl: 'SVC_PRESIDIO_URL',
  presidioMerge: 'SVC_PRESIDIO_MERGE',
  httpEnabled: 'SVC_HTTP_ENABLED',
  httpPort: 'SVC_HTTP_PORT',
  bundleOutputDir: 'SVC_BUNDLE_OUTPUT_DIR',
  tsaUrl: 'SVC_TSA_URL',
  byosProvider: 'SVC_AUDIT_BYOS_PROVIDER',
  scimBaseUrl: 'SVC_SCIM_BASE_URL',
  samlIdpMetadataUrl: 'SVC_SAML_IDP_METADATA_URL',
  samlSpEntityId: 'SVC_SAML_SP_ENTITY_ID',
  samlIdpIssuer: 'SVC_SAML_IDP_ISSUER',
  oidcProviderUrl: 'SVC_OIDC_PROVIDER_URL',
  oidcClientId: 'SVC_OIDC_CLIENT_ID',
  oidcRedirectUri: 'SVC_OIDC_REDIRECT_URI',
  requireSso: 'SVC_REQUIRE_SSO',
};

/** Secrets: stored encrypted at rest, never returned to any caller, only reported as set or unset. */
export const secretNames = ['signingKey', 'chatApiKey', 'oidcClientSecret'] as const;
export type SecretName = (typeof secretNames)[number];
export const secretsEnv: Readonly<Record<SecretName, string>> = {
  signingKey: 'SVC_SIGNING_KEY',
  chatApiKey: 'PROVIDER_API_KEY',
  oidcClientSecret: 'SVC_OIDC_CLIENT_SECRET',
};
