import { errorCodeForStatus } from '../../../core/contracts/errors.ts';
import { sessionInfoSchema } from '../../../core/contracts/session.ts';
import type { OpResult, SessionApi, Transport } from './transport.ts';

const networkFailure = (message: string): OpResult<never> => ({ ok: false, error: { code: 'UNAVAILABLE', message } });

/** The cookie session of `core/http/web-login.ts`, its reply checked against the shared schema. */
const httpSession = (base: string): SessionApi => ({
  current: async () => {
    const response = await fetch(`${base}/auth/session`, { credentials: 'same-origin' });
    return sessionInfoSchema.parse(await response.json());
  },
  loginWithKey: async (apiKey) => {
    const response = await fetch(`${base}/auth/login`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ api_key: apiKey }),
    });
    return response.ok;
  },
  logout: async () => {
    await fetch(`${base}/auth/logout`, { method: 'POST', credentials: 'same-origin' });
  },
});

/** Parses a reply body as JSON; a network failure or a body that is not JSON becomes an UNAVAILABLE result. */
const jsonOf = async (response: Response): Promise<{ body: unknown } | { failure: OpResult<never> }> => {
  const text = await response.text();
  try {
    return { body: JSON.parse(text) };
  } catch {
    return { failure: networkFailure(`The server answered ${response.status} without a result`) };
  }
};

const unreachable = (error: unknown): OpResult<never> => networkFailure(`Cannot reach the workbench server: ${(error as Error).message}`);

/** The bundle upload route answers the verification itself, or the spec's `{ detail }` with an error status. */
const verifyBundleFile =
  (base: string): Transport['verifyBundleFile'] =>
  async (file) => {
    try {
      const response = await fetch(`${base}/v1/risk/cec/verify`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/zip' },
        body: file,
      });
      const parsed = await jsonOf(response);
      if ('failure' in parsed) return parsed.failure;
      if (response.ok) return { ok: true, value: parsed.body as never };
      const detail = (parsed.body as { detail?: unknown }).detail;
      const message = typeof detail === 'string' ? detail : `Upload failed (${response.status})`;
      return { ok: false, error: { code: errorCodeForStatus(response.status), message } };
    } catch (error) {
      return unreachable(error);
    }
  };

/**
 * Browser: `POST /api/ops/<name>` on the origin that served the page, authenticated by the HttpOnly session
 * cookie; progress arrives as server-sent events from `/api/events`.
 */
export const httpTransport = (base = ''): Transport => {
  let source: EventSource | undefined;
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const ensureSource = (): EventSource => {
    if (source === undefined) {
      source = new EventSource(`${base}/api/events`);
      source.addEventListener('progress', (event) => {
        const payload: unknown = JSON.parse((event as MessageEvent<string>).data);
        for (const listener of listeners.get('progress') ?? []) listener(payload);
      });
    }
    return source;
  };
  return {
    kind: 'http',
    session: httpSession(base),
    call: async (name, input, options) => {
      try {
        const response = await fetch(`${base}/api/ops/${encodeURIComponent(name)}`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json', ...(options?.requestId ? { 'X-Svc-Request-Id': options.requestId } : {}) },
          body: JSON.stringify(input ?? {}),
        });
        const parsed = await jsonOf(response);
        return 'failure' in parsed ? parsed.failure : (parsed.body as never);
      } catch (error) {
        return unreachable(error);
      }
    },
    verifyBundleFile: verifyBundleFile(base),
    subscribe: (name, listener) => {
      ensureSource();
      const set = listeners.get(name) ?? new Set();
      set.add(listener as (payload: unknown) => void);
      listeners.set(name, set);
      return () => void set.delete(listener as (payload: unknown) => void);
    },
  };
};
