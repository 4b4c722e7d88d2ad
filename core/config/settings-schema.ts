import { z } from 'zod';
import { pathField } from '../ops/path-field.ts';

/**
 * Every user-editable setting, its default, and the environment variable that overrides it. Secrets are not
 * here: they live in the SecretStore and are write-only from the renderer's side.
 */
const settingFields = {
  chatEndpoint: z
    .string()
    .url()
    .or(z.literal(''))
    .meta({ title: 'Chat endpoint', description: 'Base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1' }),
  chatModel: z.string().max(200).meta({ title: 'Chat model' }),
  chatPiiFilter: z
    .enum(['off', 'redact', 'block'])
    .meta({ title: 'Chat PII filter', description: 'Pass outgoing user messages through the PII pipeline' }),
  piiAction: z.enum(['redact', 'block', 'flag']).meta({
    title: 'PII pipeline action',
    description: 'redact: return redacted text; block: refuse with 422 PII_DETECTED; flag: report only',
  }),
  piiScoreThreshold: z
    .number()
    .min(0)
    .max(1)
    .meta({ title: 'PII score threshold', description: 'Findings below this score are dropped (0 to 1)' }),
  piiPhoneRegions: z
    .string()
    .regex(/^[A-Z]{2}(?:,[A-Z]{2})*$/, 'comma-separated ISO 3166 region codes, e.g. US,GB,DE')
    .meta({
      title: 'PII phone regions',
      description: 'Regions whose national numbering plans PHONE_NUMBER checks (numbers with + are checked by their own country)',
    }),
  presidioUrl: z
    .string()
    .url()
    .or(z.literal(''))
    .meta({ title: 'Presidio analyzer URL', description: 'Delegate scans to a Presidio analyzer service' }),
  presidioMerge: z.boolean().meta({ title: 'Merge Presidio with built-in results' }),
  httpEnabled: z.boolean().meta({ title: 'Local HTTP API enabled', description: 'Desktop app only: serve the API on loopback' }),
  httpPort: z.number().int().min(0).max(65535).meta({ title: 'HTTP port' }),
  httpBodyTimeoutSeconds: z.number().int().min(1).max(86_400).meta({
    title: 'HTTP body deadline (seconds)',
    description: 'A request body must arrive whole within this time, or the connection is closed (restart to apply)',
  }),
  httpIdleTimeoutSeconds: z.number().int().min(1).max(3600).meta({
    title: 'HTTP idle timeout (seconds)',
    description: 'Connections silent for this long are closed (restart to apply)',
  }),
  httpMaxAnonymousBodies: z.number().int().min(1).max(10_000).meta({
    title: 'Unauthenticated requests with a body in flight',
    description: 'Sign-in forms and SAML posts at once; more get 503 (restart to apply)',
  }),
  bundleOutputDir: pathField(1024).meta({ title: 'Bundle output directory', description: 'Default: <data dir>/bundles' }),
  tsaUrl: z
    .string()
    .url()
    .or(z.literal(''))
    .meta({ title: 'RFC 3161 timestamp authority URL', description: 'Without one, bundles carry a timestamp stub marked as such' }),
  tsaCaFile: pathField(4096).meta({
    title: 'Trusted TSA root certificates (PEM file)',
    description: 'Bundle verification: RFC 3161 tokens must chain to one of these roots',
  }),
  anchorIntervalMinutes: z.number().min(0).max(1440).meta({
    title: 'Chain anchoring interval (minutes)',
    description: "While records arrive, each project's chain head is anchored at most this often; 0 disables",
  }),
  byosProvider: z.enum(['', 'local', 's3']).meta({
    title: 'Evidence storage provider (BYOS)',
    description: 'Empty or local: bundles stay files on this machine; s3: streamed to an S3-compatible bucket (docs/deploy.md)',
  }),
  byosS3Bucket: z.string().max(63).meta({ title: 'S3 bucket for bundles', description: 'Required when the provider is s3' }),
  byosS3Endpoint: z.string().url().or(z.literal('')).meta({
    title: 'S3 endpoint URL',
    description: 'MinIO, Ceph, Cloudflare R2 or any S3-compatible service (path-style); empty: AWS S3 of the region',
  }),
  byosS3Region: z.string().max(50).meta({ title: 'S3 region', description: 'Empty: AWS_REGION, else us-east-1 (R2: auto)' }),
  byosS3Prefix: z
    .string()
    .max(512)
    .regex(/^(?!\/)[^\\]*$/, 'a key prefix without a leading slash or backslashes')
    .meta({ title: 'S3 key prefix', description: 'Bundles go to <prefix><bundle_id>/<file name>' }),
  bundleUrlValidityHours: z.number().int().min(1).max(168).meta({
    title: 'Bundle download URL validity (hours)',
    description: 'expires_at = creation or reissue time + this; presigned S3 URLs expire then too (SigV4 allows 7 days at most)',
  }),
  scimBaseUrl: z.string().url().or(z.literal('')).meta({ title: 'SCIM base URL', description: 'The /scim/v2 URL your IdP reaches' }),
  samlIdpMetadataUrl: z.string().url().or(z.literal('')).meta({ title: 'SAML IdP metadata URL' }),
  samlIdpMetadataXml: z.string().max(1_000_000).meta({ title: 'SAML IdP metadata XML' }),
  samlSpEntityId: z.string().meta({ title: 'SAML SP entity ID' }),
  samlIdpIssuer: z.string().meta({ title: 'SAML IdP issuer' }),
  samlIdpMetadataSigningCert: z.string().max(20_000).meta({
    title: 'SAML IdP metadata signing certificate',
    description: 'PEM; when set, IdP metadata must carry a valid signature by it (else the metadata is refused)',
  }),
  samlSpEncryptionCert: z.string().max(20_000).meta({
    title: 'SAML SP encryption certificate',
    description: 'PEM certificate of the secret samlSpDecryptionKey, advertised in the SP metadata (use="encryption")',
  }),
  oidcProviderUrl: z.string().url().or(z.literal('')).meta({ title: 'OIDC provider URL', description: 'Issuer or discovery URL' }),
  oidcClientId: z.string().meta({ title: 'OIDC client ID' }),
  oidcRedirectUri: z
    .string()
    .url()
    .or(z.literal(''))
    .meta({ title: 'OIDC redirect URI', description: "Default: this server's /oidc/callback" }),
  requireSso: z
    .enum(['off', 'saml', 'oidc'])
    .meta({ title: 'Require SSO for the web workbench', description: 'The admin API key sign-in always remains as break-glass' }),
};

/** The complete settings object; every field present. */
export const settingsSchema = z.object(settingFields);
/** A change to some settings: unknown keys are an error, absent keys stay as they are. */
export const settingsPatchSchema = z.object(settingFields).partial().strict();

export type Settings = z.output<typeof settingsSchema>;
export type SettingKey = keyof Settings;

export const settingDefaults: Settings = {
  chatEndpoint: '',
  chatModel: '',
  chatPiiFilter: 'off',
  piiAction: 'redact',
  piiScoreThreshold: 0,
  piiPhoneRegions: 'US,GB,DE,FR,IL,IN,CA,BR',
  presidioUrl: '',
  presidioMerge: false,
  httpEnabled: true,
  httpPort: 8765,
  httpBodyTimeoutSeconds: 300,
  httpIdleTimeoutSeconds: 30,
  httpMaxAnonymousBodies: 32,
  bundleOutputDir: '',
  tsaUrl: '',
  tsaCaFile: '',
  anchorIntervalMinutes: 10,
  byosProvider: '',
  byosS3Bucket: '',
  byosS3Endpoint: '',
  byosS3Region: '',
  byosS3Prefix: '',
  bundleUrlValidityHours: 24,
  scimBaseUrl: '',
  samlIdpMetadataUrl: '',
  samlIdpMetadataXml: '',
  samlSpEntityId: '',
  samlIdpIssuer: '',
  samlIdpMetadataSigningCert: '',
  samlSpEncryptionCert: '',
  oidcProviderUrl: '',
  oidcClientId: '',
  oidcRedirectUri: '',
  requireSso: 'off',
};

/** Environment variables that override a setting (spec section 5 plus ours). */
export const settingsEnv: Readonly<Partial<Record<SettingKey, string>>> = {
  chatEndpoint: 'SVC_CHAT_ENDPOINT',
  chatModel: 'SVC_CHAT_MODEL',
  chatPiiFilter: 'SVC_CHAT_PII_FILTER',
  piiAction: 'SVC_PII_ACTION',
  piiPhoneRegions: 'SVC_PII_PHONE_REGIONS',
  presidioUrl: 'SVC_PRESIDIO_URL',
  presidioMerge: 'SVC_PRESIDIO_MERGE',
  httpEnabled: 'SVC_HTTP_ENABLED',
  httpPort: 'SVC_HTTP_PORT',
  httpBodyTimeoutSeconds: 'SVC_HTTP_BODY_TIMEOUT_SECONDS',
  httpIdleTimeoutSeconds: 'SVC_HTTP_IDLE_TIMEOUT_SECONDS',
  httpMaxAnonymousBodies: 'SVC_HTTP_MAX_ANONYMOUS_BODIES',
  bundleOutputDir: 'SVC_BUNDLE_OUTPUT_DIR',
  tsaUrl: 'SVC_TSA_URL',
  tsaCaFile: 'SVC_TSA_CA_FILE',
  anchorIntervalMinutes: 'SVC_ANCHOR_INTERVAL_MINUTES',
  byosProvider: 'SVC_AUDIT_BYOS_PROVIDER',
  byosS3Bucket: 'SVC_BYOS_S3_BUCKET',
  byosS3Endpoint: 'SVC_BYOS_S3_ENDPOINT',
  byosS3Region: 'SVC_BYOS_S3_REGION',
  byosS3Prefix: 'SVC_BYOS_S3_PREFIX',
  bundleUrlValidityHours: 'SVC_BUNDLE_URL_VALIDITY_HOURS',
  scimBaseUrl: 'SVC_SCIM_BASE_URL',
  samlIdpMetadataUrl: 'SVC_SAML_IDP_METADATA_URL',
  samlSpEntityId: 'SVC_SAML_SP_ENTITY_ID',
  samlIdpIssuer: 'SVC_SAML_IDP_ISSUER',
  samlIdpMetadataSigningCert: 'SVC_SAML_IDP_METADATA_SIGNING_CERT',
  samlSpEncryptionCert: 'SVC_SAML_SP_ENCRYPTION_CERT',
  oidcProviderUrl: 'SVC_OIDC_PROVIDER_URL',
  oidcClientId: 'SVC_OIDC_CLIENT_ID',
  oidcRedirectUri: 'SVC_OIDC_REDIRECT_URI',
  requireSso: 'SVC_REQUIRE_SSO',
};

/** Secrets: stored encrypted at rest, never returned to any caller, only reported as set or unset. */
export const secretNames = [
  'signingKey',
  'chatApiKey',
  'oidcClientSecret',
  'sessionKey',
  'samlSpSigningKey',
  'samlSpDecryptionKey',
] as const;
export type SecretName = (typeof secretNames)[number];
export const secretsEnv: Readonly<Record<SecretName, string>> = {
  signingKey: 'SVC_SIGNING_KEY',
  chatApiKey: 'PROVIDER_API_KEY',
  oidcClientSecret: 'SVC_OIDC_CLIENT_SECRET',
  sessionKey: 'SVC_SESSION_KEY',
  samlSpSigningKey: 'SVC_SAML_SP_SIGNING_KEY',
  samlSpDecryptionKey: 'SVC_SAML_SP_DECRYPTION_KEY',
};

/** A node-postgres connection URL: postgres:// or postgresql://, with a host (or a `?host=` socket directory). */
const isPostgresUrl = (text: string): boolean => {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && (url.hostname !== '' || url.searchParams.has('host'));
};

/**
 * Settings read from the environment only, at start-up: needed before the database opens (data dir, SQLite
 * build, log level) or chosen by whoever deploys (bind address, fonts, limits). Read them with `envSetting`
 * (core/config/env-settings.ts), never from process.env directly. Unset or empty means the default.
 */
export const envOnlySettings = {
  dataDir: {
    env: 'SVC_DATA_DIR',
    schema: z.string(),
    default: '',
    doc: "data directory (default: Electron's userData in the app; the platform's user data dir, e.g. `~/.local/share/svc-workbench`, for `svc serve`)",
  },
  httpHost: {
    env: 'SVC_HTTP_HOST',
    schema: z.string().min(1),
    default: '127.0.0.1',
    doc: 'bind address for `svc serve` (`--host` overrides)',
  },
  allowedHosts: {
    env: 'SVC_ALLOWED_HOSTS',
    schema: z.string(),
    default: '',
    doc: 'extra `host:port` names accepted in the Host header, comma-separated (team server behind a proxy)',
  },
  logLevel: {
    env: 'SVC_LOG_LEVEL',
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
    doc: 'pino level; logs never contain secrets, Authorization headers, query strings or scanned text',
  },
  logFormat: {
    env: 'SVC_LOG_FORMAT',
    schema: z.enum(['auto', 'json', 'pretty']),
    default: 'auto',
    doc: '`auto`: readable lines when stdout is a terminal, JSON lines otherwise; `json` or `pretty` forces one',
  },
  sqliteNativeBinding: {
    env: 'SVC_SQLITE_NATIVE_BINDING',
    schema: z.string(),
    default: '',
    doc: 'path of a better-sqlite3 build for another ABI (`npm start` sets it to the Electron build; empty: the one in node_modules)',
  },
  databaseUrl: {
    env: 'SVC_DATABASE_URL',
    schema: z.string().refine(isPostgresUrl, 'expected a postgres:// or postgresql:// URL with a host'),
    default: '',
    doc: 'PostgreSQL for a team server, several `svc serve` instances on one database (`postgres://user:password@host:5432/db`); empty: the SQLite file in the data dir. The password is never logged',
  },
  databasePoolSize: {
    env: 'SVC_DATABASE_POOL_SIZE',
    schema: z.coerce.number().int().min(2).max(200),
    default: 10,
    doc: "connections each `svc serve` instance keeps to PostgreSQL at most (plus one that listens for settings changes); instances x this must stay below the server's `max_connections`",
  },
  dpaFontDir: {
    env: 'SVC_DPA_FONT_DIR',
    schema: z.string(),
    default: '',
    doc: 'folder with `DejaVuSans.ttf` and `DejaVuSans-Bold.ttf` for PDF exports instead of the DejaVu fonts shipped with the app',
  },
  piiRecognizersFile: {
    env: 'SVC_PII_RECOGNIZERS_FILE',
    schema: z.string(),
    default: '',
    doc: "custom recognizers (JSON, Presidio's ad-hoc recognizer shape; default `<data dir>/recognizers.json` when present)",
  },
  piiWorkers: {
    env: 'SVC_PII_WORKERS',
    schema: z.literal('auto').or(z.coerce.number().int().min(0).max(64)),
    default: 'auto',
    doc: '`svc serve` and the desktop app scan PII on this many worker threads (`auto`: one per available core; `0`: on the main thread), plus one that writes their evidence records',
  },
  piiScanTimeoutSeconds: {
    env: 'SVC_PII_SCAN_TIMEOUT_SECONDS',
    schema: z.coerce.number().int().min(1).max(3600),
    default: 30,
    doc: 'a scan running longer on a worker fails with 500 `scan_error: scan timed out` and the worker is replaced',
  },
  cecMaxUploadBytes: {
    env: 'SVC_CEC_MAX_UPLOAD_BYTES',
    schema: z.coerce.number().int().positive(),
    default: 2 * 1024 * 1024 * 1024,
    doc: 'largest bundle `POST /v1/risk/cec/verify` accepts, and `svc verify` or the Verify screen downloads from a URL, in bytes',
  },
} as const satisfies Record<string, { env: string; schema: z.ZodType; default: unknown; doc: string }>;
export type EnvOnlySetting = keyof typeof envOnlySettings;

/** What each secret's environment variable does (README configuration table). */
export const secretDocs: Readonly<Record<SecretName, string>> = {
  signingKey:
    'HMAC-SHA256 key for bundle manifests (spec 5); a warning is logged when unset; required (16+ characters, same on every instance) by `svc serve` with `SVC_DATABASE_URL`',
  chatApiKey: 'default chat API key (spec 5)',
  oidcClientSecret: 'OIDC client secret (never logged)',
  sessionKey:
    'HS256 key for session JWTs (default: generated per install and kept with the secrets); required (16+ characters, same on every instance) by `svc serve` with `SVC_DATABASE_URL`',
  samlSpSigningKey: 'PEM private key that signs SAML AuthnRequests when the SP signs them',
  samlSpDecryptionKey: 'PEM private key that decrypts encrypted SAML assertions (its certificate: `SVC_SAML_SP_ENCRYPTION_CERT`)',
};
