import type { ProtocolRoutes } from '../../http/protocol-routes.ts';
import { publicRoute } from '../../http/route-policy.ts';
import { sendLoginError, sendLoginSuccess } from '../saml/login-pages.ts';
import { oidcError } from './discovery.ts';
import { clearedBindingCookie, newLoginBinding, presentedBinding } from '../sessions/login-binding.ts';
import { pendingTtlSeconds } from './pending.ts';
import { completeOidcLogin, exchangeOidcCode, oidcAuthorize } from './service.ts';

type CallbackQuery = { code?: string; state?: string; iss?: string; error?: string; error_description?: string };

/** OIDC login for the web workbench: start at the provider, come back to the callback, get a session cookie. */
export const oidcRoutes: ProtocolRoutes = async (fastify, { app, origin, startWebSession }) => {
  const secure = origin().startsWith('https:');
  fastify.get('/oidc/login', { config: publicRoute('html') }, async (request, reply) => {
    try {
      const binding = newLoginBinding('oidc', pendingTtlSeconds, secure);
      const { authorization_url } = await oidcAuthorize(app, {}, { origin: origin(), browserBinding: binding.hash });
      return reply.header('Set-Cookie', binding.cookie).redirect(authorization_url, 302);
    } catch (error) {
      return sendLoginError(app, reply, request.headers.accept, 'OIDC', error);
    }
  });

  fastify.get<{ Querystring: CallbackQuery }>('/oidc/callback', { config: publicRoute('html') }, async (request, reply) => {
    const { code, state, iss, error, error_description } = request.query;
    try {
      if (typeof error === 'string') {
        throw oidcError(
          'provider',
          `the provider refused the login: ${error}${error_description ? ` (${error_description.slice(0, 200)})` : ''}`,
        );
      }
      if (typeof code !== 'string' || typeof state !== 'string') {
        throw oidcError('state', 'the callback has no code or state');
      }
      reply.header('Set-Cookie', clearedBindingCookie('oidc', secure));
      const browser = presentedBinding('oidc', request.headers.cookie);
      const login = await exchangeOidcCode(app, { code, state, iss, browser });
      const { result, sessionId, tier } = await completeOidcLogin(app, login);
      await startWebSession(reply, { sub: result.subject, email: result.email, tier, origin: sessionId, amr: 'oidc' });
      return sendLoginSuccess(reply, request.headers.accept, '/', {
        subject: result.subject,
        email: result.email,
        session_jwt: result.session_jwt,
      });
    } catch (failure) {
      return sendLoginError(app, reply, request.headers.accept, 'OIDC', failure);
    }
  });
};
