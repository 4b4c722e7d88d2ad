import type { OpResult, Transport } from './transport.ts';

const networkFailure = (message: string): OpResult<never> => ({ ok: false, error: { code: 'UNAVAILABLE', message } });

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
    call: async (name, input, options) => {
      try {
        const response = await fetch(`${base}/api/ops/${encodeURIComponent(name)}`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json', ...(options?.requestId ? { 'X-Svc-Request-Id': options.requestId } : {}) },
          body: JSON.stringify(input ?? {}),
        });
        const text = await response.text();
        try {
          return JSON.parse(text) as never;
        } catch {
          return networkFailure(`The server answered ${response.status} without a result`);
        }
      } catch (error) {
        return networkFailure(`Cannot reach the workbench server: ${(error as Error).message}`);
      }
    },
    subscribe: (name, listener) => {
      ensureSource();
      const set = listeners.get(name) ?? new Set();
      set.add(listener as (payload: unknown) => void);
      listeners.set(name, set);
      return () => void set.delete(listener as (payload: unknown) => void);
    },
  };
};
