import { z } from 'zod';
import type { App } from '../../app.ts';
import { defineOp } from '../../ops/define.ts';
import { loadSamlConfig, samlConfigPatchSchema, setSamlConfig } from './config.ts';
import { failedCheckOf } from './errors.ts';
import { parseIdpMetadata } from './idp-metadata.ts';
import { resolveIdp, samlMetadata, samlTestResponse, spEndpoints } from './service.ts';
import { spDecryption } from './sp-decryption.ts';

/** What the Identity Settings screen shows: SP endpoints, IdP settings, validator options and IdP status. */
const describeSaml = async (app: App) => {
  const config = await loadSamlConfig(app);
  const settings = app.settings.get();
  const sp = spEndpoints(app, config);
  const decryption = spDecryption(app);
  let idp: { trusted_cert_count: number; issuer: string; sso_url: string | null; error: string | null };
  try {
    const resolved = await resolveIdp(app, config);
    idp = { trusted_cert_count: resolved.certs.length, issuer: resolved.issuer, sso_url: resolved.ssoUrl ?? null, error: null };
  } catch (error) {
    if (failedCheckOf(error) === undefined) throw error;
    idp = { trusted_cert_count: 0, issuer: '', sso_url: null, error: (error as Error).message };
  }
  return {
    sp: {
      entity_id: sp.entityId,
      acs_url: sp.acsUrl,
      metadata_url: sp.entityId.endsWith('/saml/metadata') ? sp.entityId : null,
      // Whether encrypted assertions can be read; the key itself never leaves core.
      encryption: { advertised: decryption.advertisedCertPem !== undefined, problem: decryption.problem ?? null },
    },
    settings: {
      idp_metadata_url: settings.samlIdpMetadataUrl,
      idp_metadata_xml: settings.samlIdpMetadataXml,
      sp_entity_id: settings.samlSpEntityId,
      idp_issuer: settings.samlIdpIssuer,
    },
    options: config,
    idp,
  };
};

const admin = { tier: 'admin' } as const;

export const samlOps = {
  'identity.samlMetadata': defineOp({
    summary: "This service provider's SAML 2.0 metadata XML (also served at GET /saml/metadata)",
    input: z.object({}),
    access: 'read',
    tier: 'free',
    handler: async (_input, { app }) => samlMetadata(app),
  }),
  'identity.samlTestResponse': defineOp({
    summary: 'Validate a pasted base64 SAMLResponse without logging in; reports which check failed and why',
    input: z.object({ saml_response: z.string().min(1).max(8_000_000) }),
    access: 'read',
    ...admin,
    handler: async (input, { app }) => samlTestResponse(app, input.saml_response),
  }),
  'identity.samlGetConfig': defineOp({
    summary: 'SAML settings: SP endpoints, IdP metadata source, validator options and the IdP status',
    input: z.object({}),
    access: 'read',
    ...admin,
    handler: async (_input, { app }) => describeSaml(app),
  }),
  'identity.samlSetConfig': defineOp({
    summary: 'Change SAML settings (IdP metadata URL or XML, SP entity id, expected issuer) and validator options',
    input: z.object({
      idp_metadata_url: z.string().url().or(z.literal('')).optional(),
      idp_metadata_xml: z.string().max(1_000_000).optional(),
      sp_entity_id: z.string().max(1024).optional(),
      idp_issuer: z.string().max(1024).optional(),
      options: samlConfigPatchSchema.optional(),
    }),
    access: 'write',
    ...admin,
    handler: async (input, { app }) => {
      // Refuse metadata we could not use, before storing it.
      if (input.idp_metadata_xml) {
        parseIdpMetadata(
          input.idp_metadata_xml,
          (await loadSamlConfig(app)).metadataMaxBytes,
          app.settings.get().samlIdpMetadataSigningCert,
        );
      }
      await app.settings.update({
        ...(input.idp_metadata_url === undefined ? {} : { samlIdpMetadataUrl: input.idp_metadata_url }),
        ...(input.idp_metadata_xml === undefined ? {} : { samlIdpMetadataXml: input.idp_metadata_xml }),
        ...(input.sp_entity_id === undefined ? {} : { samlSpEntityId: input.sp_entity_id }),
        ...(input.idp_issuer === undefined ? {} : { samlIdpIssuer: input.idp_issuer }),
      });
      if (input.options !== undefined) await setSamlConfig(app, input.options);
      return describeSaml(app);
    },
  }),
} as const;
