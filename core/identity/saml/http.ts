import type { App } from '../../app.ts';
import { AppError } from '../../errors.ts';
import type { ProtocolRoutes } from '../../http/protocol-routes.ts';
import { publicRoute } from '../../http/route-policy.ts';
import { checkLoginBinding, clearedBindingCookie, newLoginBinding, presentedBinding } from '../sessions/login-binding.ts';
import { storeHandoff, takeHandoff } from './acs-handoff.ts';
import { loadSamlConfig, listenerOrigin } from './config.ts';
import { safeReturnPath, sendLoginError, sendLoginSuccess } from './login-pages.ts';
import { acceptSamlResponse, finishSamlLogin, samlLoginRedirect, samlMetadata } from './service.ts';

/** Base64 SAMLResponse up to the validator's largest cap (5 MB decoded), URL-encoded. */
const acsBodyLimit = 8 * 1024 * 1024;

/**
 * The ACS takes anonymous cross-site posts, so its body is capped by the configured `maxResponseBytes` before
 * it is read: base64 (4/3), URL-encoding of `+`, `/`, `=` (a few percent; 1.25 leaves room) and a RelayState.
 * Browsers send a Content-Length with a form; a body without one is refused.
 */
const checkAcsLength = async (app: App, length: string | undefined): Promise<void> => {
  const limit = Math.min(acsBodyLimit, Math.ceil(((await loadSamlConfig(app)).maxResponseBytes * 4) / 3) * 1.25 + 8192);
  if (length === undefined) throw new AppError('VALIDATION', 'The SAML form post has no Content-Length', { status: 411 });
  if (Number(length) > limit) {
    throw new AppError('PAYLOAD_TOO_LARGE', `The SAML form post is larger than ${Math.round(limit)} bytes (maxResponseBytes)`);
  }
};

/**
 * SAML 2.0 SP endpoints: metadata, SP-initiated login (HTTP-Redirect binding), the ACS (HTTP-POST binding) and
 * its browser step `/saml/complete` (acs-handoff.ts: why the ACS cannot check the login cookie itself).
 * The form parser is registered in this plugin's scope only.
 */
export const samlRoutes: ProtocolRoutes = async (fastify, { app, origin, startWebSession }) => {
  listenerOrigin(app).current = origin;
  const secure = origin().startsWith('https:');
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: acsBodyLimit }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  fastify.get('/saml/metadata', { config: publicRoute('error') }, async (_request, reply) =>
    reply.type('application/samlmetadata+xml; charset=utf-8').send(await samlMetadata(app, { origin: origin() })),
  );

  fastify.get<{ Querystring: { return_to?: string } }>('/saml/login', { config: publicRoute('html') }, async (request, reply) => {
    try {
      // The login cookie lives as long as the AuthnRequest id it is bound to.
      const binding = newLoginBinding('saml', (await loadSamlConfig(app)).requestTtlSeconds, secure);
      const { url } = await samlLoginRedirect(app, {
        origin: origin(),
        relayState: safeReturnPath(request.query.return_to),
        browserBinding: binding.hash,
      });
      return reply.header('Set-Cookie', binding.cookie).redirect(url, 302);
    } catch (error) {
      return sendLoginError(app, reply, request.headers.accept, 'SAML', error);
    }
  });

  // Step 1, the IdP's cross-site form POST: validate, keep the result under a one-time handle, go to step 2.
  fastify.post<{ Body: { SAMLResponse?: unknown; RelayState?: unknown } }>(
    '/saml/acs',
    {
      bodyLimit: acsBodyLimit,
      config: { svc: { ...publicRoute('html').svc, allowCrossOrigin: true } },
      onRequest: async (request) => checkAcsLength(app, request.headers['content-length']),
    },
    async (request, reply) => {
      const body = (request.body ?? {}) as { SAMLResponse?: unknown; RelayState?: unknown };
      try {
        if (typeof body.SAMLResponse !== 'string') {
          return reply.code(400).send({ error: 'missing_field: SAMLResponse' });
        }
        const validated = await acceptSamlResponse(app, body.SAMLResponse, { origin: origin() });
        const handle = await storeHandoff(app, validated, body.RelayState);
        return reply.redirect(`/saml/complete?handle=${handle}`, 303);
      } catch (error) {
        return sendLoginError(app, reply, request.headers.accept, 'SAML', error);
      }
    },
  );

  // Step 2, a top-level GET (the SameSite=Lax login cookie is sent): the browser that started the login finishes it.
  fastify.get<{ Querystring: { handle?: unknown } }>('/saml/complete', { config: publicRoute('html') }, async (request, reply) => {
    try {
      // The handle is used up first, so a forced completion also ends the attacker's pending login.
      const handoff = await takeHandoff(app, request.query.handle);
      if (!handoff.unsolicited) checkLoginBinding(handoff.browserBinding, presentedBinding('saml', request.headers.cookie));
      const login = await finishSamlLogin(app, handoff);
      await startWebSession(reply, { sub: login.subject, email: login.email, tier: login.tier, origin: login.session_id, amr: 'saml' });
      if (!handoff.unsolicited) reply.header('Set-Cookie', clearedBindingCookie('saml', secure));
      const { subject, email, session_jwt } = login;
      return sendLoginSuccess(reply, request.headers.accept, handoff.returnPath, { subject, email, session_jwt });
    } catch (error) {
      return sendLoginError(app, reply, request.headers.accept, 'SAML', error);
    }
  });
};
