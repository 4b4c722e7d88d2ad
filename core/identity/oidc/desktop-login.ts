import { z } from 'zod';
import type { App } from '../../app.ts';
import { AppError } from '../../errors.ts';
import { defineOp } from '../../ops/define.ts';
import { startLoopbackRedirect } from './loopback.ts';
import { completeOidcLogin, exchangeOidcCode, type OIDCTokenResult, oidcAuthorize } from './service.ts';

/**
 * Desktop sign-in per RFC 8252: the authorization request goes to the user's own browser (never an embedded
 * web view), and the answer comes back to a one-shot listener on 127.0.0.1. PKCE, state and nonce are those of
 * the regular flow; the loopback port is new each time, as RFC 8252 section 7.3 lets providers accept.
 */
export const desktopOidcLogin = async (app: App, options: { timeoutMs?: number } = {}): Promise<OIDCTokenResult> => {
  if (app.openExternal === undefined) {
    throw new AppError('UNAVAILABLE', 'Desktop sign-in needs the desktop app; in a browser, use "Sign in with OpenID Connect"');
  }
  const loopback = await startLoopbackRedirect(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs });
  try {
    const request = await oidcAuthorize(app, { redirect_uri: loopback.redirectUri });
    const answer = loopback.waitForCode(request.state);
    await app.openExternal(request.authorization_url);
    const { code, state } = await answer;
    return (await completeOidcLogin(app, await exchangeOidcCode(app, { code, state }))).result;
  } finally {
    await loopback.close();
  }
};

export const desktopLoginOps = {
  'identity.oidcDesktopLogin': defineOp({
    summary: 'Desktop only: sign in through the system browser and a loopback redirect (RFC 8252)',
    input: z.object({}),
    access: 'write',
    tier: 'admin',
    handler: async (_input, ctx) => desktopOidcLogin(ctx.app),
  }),
} as const;
