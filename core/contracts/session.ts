import { z } from 'zod';

/** `GET /auth/session`: who the browser's session cookie says is signed in, and which SSO is on offer. */
export const sessionInfoSchema = z.object({
  authenticated: z.boolean(),
  subject: z.string(),
  tier: z.string(),
  sso: z.object({ required: z.enum(['off', 'saml', 'oidc']), saml: z.boolean(), oidc: z.boolean() }),
});
export type SessionInfo = z.output<typeof sessionInfoSchema>;
