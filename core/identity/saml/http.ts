import type { ProtocolRoutes } from '../../http/protocol-routes.ts';
import { publicRoute } from '../../http/route-policy.ts';
import { listenerOrigin } from './config.ts';
import { safeReturnPath, sendLoginError, sendLoginSuccess } from './login-pages.ts';
import { samlLogin, samlLoginRedirect, samlMetadata } from './service.ts';

/** Base64 SAMLResponse up to the validator's largest cap (5 MB decoded), URL-encoded. */
const acsBodyLimit = 8 * 1024 * 1024;

/**
 * SAML 2.0 SP endpoints: metadata, SP-initiated login (HTTP-Redirect binding) and the ACS (HTTP-POST binding).
 * The form parser is registered in this plugin's scope only.
 */
export const samlRoutes: ProtocolRoutes = async (fastify, { app, origin, startWebSession }) => {
  listenerOrigin(app).current = origin;
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: acsBodyLimit }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  fastify.get('/saml/metadata', { config: publicRoute('error') }, async (_request, reply) =>
    reply.type('application/samlmetadata+xml; charset=utf-8').send(samlMetadata(app, { origin: origin() })),
  );

  fastify.get<{ Querystring: { return_to?: string } }>('/saml/login', { config: publicRoute('html') }, async (request, reply) => {
    try {
      const { url } = await samlLoginRedirect(app, { origin: origin(), relayState: safeReturnPath(request.query.return_to) });
      return reply.redirect(url, 302);
    } catch (error) {
      return sendLoginError(app, reply, request.headers.accept, 'SAML', error);
    }
  });

  fastify.post<{ Body: { SAMLResponse?: unknown; RelayState?: unknown } }>(
    '/saml/acs',
    { bodyLimit: acsBodyLimit, config: { svc: { ...publicRoute('html').svc, allowCrossOrigin: true } } },
    async (request, reply) => {
      const body = (request.body ?? {}) as { SAMLResponse?: unknown; RelayState?: unknown };
      try {
        if (typeof body.SAMLResponse !== 'string') {
          return reply.code(400).send({ error: 'missing_field: SAMLResponse' });
        }
        const login = await samlLogin(app, body.SAMLResponse, { origin: origin() });
        await startWebSession(reply, { sub: login.subject, email: login.email, tier: login.tier, origin: login.session_id, amr: 'saml' });
        const { subject, email, session_jwt } = login;
        return sendLoginSuccess(reply, request.headers.accept, safeReturnPath(body.RelayState), { subject, email, session_jwt });
      } catch (error) {
        return sendLoginError(app, reply, request.headers.accept, 'SAML', error);
      }
    },
  );
};
