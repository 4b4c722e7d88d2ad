import { z } from 'zod';
import { defineOp } from '../../ops/define.ts';
import { AppError } from '../../errors.ts';
import { discoverProvider } from './discovery.ts';
import { oidcAuthorize, oidcCallback } from './service.ts';

const text = (max: number) => z.string().trim().max(max);
const admin = { tier: 'admin' } as const;

export const oidcOps = {
  'identity.oidcAuthorize': defineOp({
    summary: 'Start an OIDC login (PKCE S256); defaults from SVC_OIDC_PROVIDER_URL, SVC_OIDC_CLIENT_ID, SVC_OIDC_REDIRECT_URI',
    input: z.object({
      provider_url: text(2048).optional(),
      client_id: text(512).optional(),
      redirect_uri: text(2048).optional(),
      scope: text(1024).optional(),
    }),
    access: 'write',
    ...admin,
    handler: async (input, { app }) => oidcAuthorize(app, input),
  }),
  'identity.oidcCallback': defineOp({
    summary: 'Complete an OIDC login: exchange the code, validate the ID token, check subject and email, start an SSO session',
    input: z.object({
      code: text(4096).min(1),
      state: text(512).min(1),
      subject: text(512).min(1),
      email: text(320),
      iss: text(2048).optional(),
    }),
    access: 'write',
    ...admin,
    handler: async (input, { app }) => oidcCallback(app, input),
  }),
  'identity.oidcTestDiscovery': defineOp({
    summary: "Fetch a provider's discovery document and report what the workbench needs from it",
    input: z.object({ provider_url: text(2048).optional() }),
    access: 'read',
    ...admin,
    handler: async (input, { app }) => {
      const providerUrl = input.provider_url || app.settings.get().oidcProviderUrl;
      if (providerUrl === '') return { ok: false as const, message: 'No provider URL is configured' };
      try {
        const metadata = await discoverProvider(app, providerUrl);
        const list = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
        const authMethods = list(metadata.token_endpoint_auth_methods_supported);
        return {
          ok: true as const,
          issuer: metadata.issuer,
          authorization_endpoint: metadata.authorization_endpoint ?? null,
          token_endpoint: metadata.token_endpoint ?? null,
          userinfo_endpoint: metadata.userinfo_endpoint ?? null,
          jwks_uri: metadata.jwks_uri ?? null,
          pkce_s256: list(metadata.code_challenge_methods_supported).includes('S256'),
          client_secret_basic: authMethods.length === 0 || authMethods.includes('client_secret_basic'),
          id_token_signing_algs: list(metadata.id_token_signing_alg_values_supported),
        };
      } catch (error) {
        if (error instanceof AppError) return { ok: false as const, message: error.message };
        throw error;
      }
    },
  }),
} as const;
