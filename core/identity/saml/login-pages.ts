import type { FastifyReply } from 'fastify';
import type { App } from '../../app.ts';
import { AppError, httpStatusFor } from '../../errors.ts';

const escapeHtml = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const page = (title: string, body: string, head = ''): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>${head}</head>` +
  `<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;

/** A same-origin path to return to after login; anything else (absolute, `//host`, backslashes) becomes `/`. */
export const safeReturnPath = (value: unknown): string =>
  typeof value === 'string' && /^\/(?![/\\])[^\s\\]{0,500}$/.test(value) ? value : '/';

const wantsJson = (accept: string | undefined): boolean => (accept ?? '').includes('application/json');

/**
 * After an SSO login, go to `path` through an HTML page instead of a 303: the login arrived by a cross-site
 * navigation (IdP form POST or redirect), and a SameSite=Strict cookie is sent only on a same-site navigation.
 */
export const sendLoginSuccess = (reply: FastifyReply, accept: string | undefined, path: string, json: unknown): FastifyReply => {
  if (wantsJson(accept)) return reply.code(200).send(json);
  return reply
    .code(200)
    .type('text/html; charset=utf-8')
    .send(
      page(
        'Signed in',
        `<p role="status">You are signed in. <a href="${escapeHtml(path)}">Continue to the workbench</a>.</p>`,
        `<meta http-equiv="refresh" content="0;url=${escapeHtml(path)}">`,
      ),
    );
};

/** A failed SSO login: the failed check and why, as JSON or as a page with the way back. */
export const sendLoginError = (
  app: App,
  reply: FastifyReply,
  accept: string | undefined,
  protocol: 'SAML' | 'OIDC',
  error: unknown,
): FastifyReply => {
  const known = error instanceof AppError;
  if (!known) app.log.error({ err: error, protocol }, 'SSO login failed unexpectedly');
  const status = known ? (error.status ?? httpStatusFor(error.code)) : 500;
  const message = known ? error.message : 'Internal error';
  const check = known && typeof error.detail?.['check'] === 'string' ? error.detail['check'] : undefined;
  if (known) app.log.warn({ protocol, code: error.code, check }, 'SSO login rejected');
  if (wantsJson(accept)) return reply.code(status).send({ error: message, ...(check === undefined ? {} : { check }) });
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(
      page(
        `${protocol} sign-in failed`,
        `<p role="alert">${escapeHtml(message)}</p>` +
          (check === undefined ? '' : `<p>Failed check: <code>${escapeHtml(check)}</code></p>`) +
          '<p>An administrator can test the configuration under Identity Settings. <a href="/">Back to the workbench</a> (break-glass: sign in with an admin API key).</p>',
      ),
    );
};
