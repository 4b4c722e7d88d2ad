import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Which Host and Origin values the listener accepts. A browser page on any other origin (CSRF), or a rebinding
 * DNS name that resolves to 127.0.0.1, never gets through: the Host must name us, and an Origin, when sent, must
 * be ours.
 */
export type OriginPolicy = {
  /** `http://127.0.0.1:8765`: the origin the listener advertises. */
  readonly origin: () => string;
  /** Extra `host:port` names allowed (SVC_ALLOWED_HOSTS), e.g. a reverse proxy's name for a team server. */
  readonly extraHosts: readonly string[];
};

const loopbackNames = ['127.0.0.1', 'localhost', '[::1]'];

const hostsOf = (origin: string, extraHosts: readonly string[]): Set<string> => {
  const url = new URL(origin);
  const port = url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port;
  const hosts = new Set<string>([url.host.toLowerCase(), ...extraHosts.map((host) => host.toLowerCase())]);
  for (const name of loopbackNames) {
    hosts.add(`${name}:${port}`);
    if ((url.protocol === 'http:' && port === '80') || (url.protocol === 'https:' && port === '443')) hosts.add(name);
  }
  return hosts;
};

/** Each policy's hosts for its current origin: parsing the origin ran on every request. */
const hostsByPolicy = new WeakMap<OriginPolicy, { readonly origin: string; readonly hosts: ReadonlySet<string> }>();

export const allowedHosts = (policy: OriginPolicy): ReadonlySet<string> => {
  const origin = policy.origin();
  const known = hostsByPolicy.get(policy);
  if (known !== undefined && known.origin === origin) return known.hosts;
  const hosts = hostsOf(origin, policy.extraHosts);
  hostsByPolicy.set(policy, { origin, hosts });
  return hosts;
};

export type SecurityVerdict = { readonly ok: true } | { readonly ok: false; readonly status: number; readonly reason: string };

/** Routes that legitimately receive cross-site POSTs (the SAML ACS form post) set `allowCrossOrigin` in their policy. */
export const checkRequestOrigin = (request: FastifyRequest, policy: OriginPolicy): SecurityVerdict => {
  const hosts = allowedHosts(policy);
  const host = (request.headers.host ?? '').toLowerCase();
  if (!hosts.has(host)) return { ok: false, status: 421, reason: 'Host header does not name this server' };
  const origin = request.headers.origin;
  const allowCrossOrigin = request.routeOptions.config?.svc?.allowCrossOrigin === true;
  if (origin !== undefined && !allowCrossOrigin) {
    let originHost: string;
    try {
      originHost = new URL(origin).host.toLowerCase();
    } catch {
      return { ok: false, status: 403, reason: 'Malformed Origin header' };
    }
    if (!hosts.has(originHost)) return { ok: false, status: 403, reason: 'Cross-origin request refused' };
  }
  return { ok: true };
};

export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const applySecurityHeaders = (reply: FastifyReply): void => {
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('X-Frame-Options', 'DENY');
  reply.header('Referrer-Policy', 'no-referrer');
  reply.header('Cross-Origin-Opener-Policy', 'same-origin');
  reply.header('Cross-Origin-Resource-Policy', 'same-origin');
  reply.header('Content-Security-Policy', contentSecurityPolicy);
  reply.header('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
};
