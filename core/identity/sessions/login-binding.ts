import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { SFIdentityError } from '../../errors.ts';
import { parseCookies } from '../../http/cookies.ts';

/**
 * Binds an SSO login to the browser that started it (login CSRF defence). The start route sets a random
 * value in an HttpOnly, SameSite=Lax, short-lived cookie and stores only its hash with the pending login; the
 * callback completes only when the browser presents the same value. An attacker who starts a login and sends
 * the victim's browser to the callback URL fails: the victim's browser has no such cookie.
 */
export type LoginBinding = { readonly cookie: string; readonly hash: string };

export const bindingCookieName = (protocol: 'oidc' | 'saml'): string => `svc_${protocol}_login`;

export const hashBinding = (value: string): string => createHash('sha256').update(value).digest('hex');

export const newLoginBinding = (protocol: 'oidc' | 'saml', ttlSeconds: number, secure: boolean): LoginBinding => {
  const value = randomBytes(32).toString('base64url');
  return {
    cookie: `${bindingCookieName(protocol)}=${value}; Path=/${protocol}; HttpOnly; SameSite=Lax; Max-Age=${ttlSeconds}${secure ? '; Secure' : ''}`,
    hash: hashBinding(value),
  };
};

export const clearedBindingCookie = (protocol: 'oidc' | 'saml', secure: boolean): string =>
  `${bindingCookieName(protocol)}=; Path=/${protocol}; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;

/** The hash of the binding value the request's browser holds, if any. */
export const presentedBinding = (protocol: 'oidc' | 'saml', cookieHeader: string | undefined): string | null => {
  const value = parseCookies(cookieHeader).get(bindingCookieName(protocol));
  return value === undefined || value === '' ? null : hashBinding(value);
};

/**
 * A browser callback (`presented` = the hash from its cookie, or null) completes only a login started in that
 * browser; an API completion (`presented` undefined) only a login started through the API, with no binding.
 */
export const checkLoginBinding = (stored: string | null, presented: string | null | undefined): void => {
  const ok =
    presented === undefined
      ? stored === null
      : stored !== null &&
        presented !== null &&
        stored.length === presented.length &&
        timingSafeEqual(Buffer.from(stored), Buffer.from(presented));
  if (!ok) {
    throw new SFIdentityError('This sign-in was started in another browser (or its login cookie expired); start it again here', {
      code: 'UNAUTHENTICATED',
      detail: { check: 'browser' },
    });
  }
};
