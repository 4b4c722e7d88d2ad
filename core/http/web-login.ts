import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../app.ts';
import { issueSessionJwt, type SessionClaims, webSessionSeconds } from '../identity/api-keys/jwt.ts';
import { validateApiKey } from '../identity/api-keys/service.ts';
import { redeemLoginLink } from '../identity/login-links/store.ts';
import { revokeWorkbenchSession } from '../identity/sessions/store.ts';
import type { Actor } from '../ops/define.ts';
import type { SessionInfo } from '../contracts/session.ts';
import { clearedSessionCookie, sessionCookie } from './cookies.ts';
import { publicRoute } from './route-policy.ts';

export type StartWebSession = (reply: FastifyReply, claims: Omit<SessionClaims, 'amr'> & { amr: SessionClaims['amr'] }) => Promise<void>;

export const webSessionStarter =
  (app: App, secure: boolean): StartWebSession =>
  async (reply, claims) => {
    const { token } = await issueSessionJwt(app, claims, webSessionSeconds);
    reply.header('Set-Cookie', sessionCookie(token, webSessionSeconds, secure));
  };

const page = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

/**
 * Browser login for the web workbench: the one-time link, an admin API key form (break-glass), the session
 * probe the renderer calls at start, and logout.
 */
export const registerWebLogin = (
  fastify: FastifyInstance,
  app: App,
  actorOf: (request: FastifyRequest) => Actor,
  startWebSession: StartWebSession,
  secure: boolean,
): void => {
  fastify.get<{ Querystring: { token?: string } }>('/login', { config: publicRoute('html') }, async (request, reply) => {
    // The one-time link `svc serve` printed (any instance may have issued it; each link signs in once).
    const token = request.query.token;
    if (typeof token === 'string' && token.length <= 200 && (await redeemLoginLink(app.database, token, app.now()))) {
      await startWebSession(reply, { sub: 'local-admin', tier: 'admin', amr: 'local' });
      return reply.redirect('/', 303);
    }
    return reply
      .code(401)
      .type('text/html; charset=utf-8')
      .send(
        page(
          'Login link expired or already used',
          '<p>Open the workbench and sign in with an admin API key (<code>svc keys create --tier admin</code>), or restart <code>svc serve</code> for a new link.</p><p><a href="/">Open the workbench</a></p>',
        ),
      );
  });

  fastify.post('/auth/login', { config: publicRoute('envelope') }, async (request, reply) => {
    const parsed = z.object({ api_key: z.string().max(200) }).safeParse(request.body);
    const key = parsed.success ? await validateApiKey(app, parsed.data.api_key) : null;
    if (key === null) {
      return reply.code(401).send({ ok: false, error: { code: 'UNAUTHENTICATED', message: 'Invalid, revoked or expired API key' } });
    }
    // With SSO required, key sign-in remains only as break-glass for administrators.
    if (app.settings.get().requireSso !== 'off' && key.tier !== 'admin') {
      return reply.code(403).send({
        ok: false,
        error: { code: 'FORBIDDEN', message: 'This server requires single sign-on; only an admin key may sign in directly' },
      });
    }
    await startWebSession(reply, { sub: key.owner_user_id ?? key.id, tier: key.tier, scopes: key.scopes, origin: key.id, amr: 'apikey' });
    return reply.send({ ok: true, value: { tier: key.tier } });
  });

  fastify.post('/auth/logout', { config: publicRoute('envelope') }, async (request, reply) => {
    // Logout ends the session itself, not only the cookie: a copied cookie or token stops working too.
    const actor = actorOf(request);
    if (actor.kind === 'session') await revokeWorkbenchSession(app, actor.id);
    reply.header('Set-Cookie', clearedSessionCookie(secure));
    return reply.send({ ok: true, value: null });
  });

  fastify.get('/auth/session', { config: publicRoute('error') }, async (request) => {
    const actor = actorOf(request);
    const settings = app.settings.get();
    const session: SessionInfo = {
      authenticated: actor.kind !== 'anonymous',
      subject: actor.subject ?? actor.id,
      tier: actor.tier,
      sso: {
        required: settings.requireSso,
        saml: settings.samlIdpMetadataUrl !== '' || settings.samlIdpMetadataXml !== '',
        oidc: settings.oidcProviderUrl !== '' && settings.oidcClientId !== '',
      },
    };
    return session;
  });
};
