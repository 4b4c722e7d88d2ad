import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SFIdentityError } from '../../errors.ts';

export type LoopbackRedirect = {
  /** `http://127.0.0.1:<port>/oidc/callback`: register it (any port) for a native client. */
  readonly redirectUri: string;
  /** Resolves when the browser comes back with this state; rejects on a provider error or the timeout. */
  waitForCode(state: string): Promise<{ code: string; state: string }>;
  close(): Promise<void>;
};

type Waiter = { resolve: (value: { code: string; state: string }) => void; reject: (error: Error) => void };

const page = (title: string, text: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;

const failure = (message: string): SFIdentityError =>
  new SFIdentityError(`OIDC loopback check failed: ${message}`, { code: 'UNAUTHENTICATED', detail: { check: 'loopback' } });

/**
 * RFC 8252 desktop login: a one-shot HTTP listener on 127.0.0.1, port chosen by the OS, that receives the
 * authorization response in the user's own browser (the Electron main process opens it with
 * shell.openExternal). Responses with an unknown state are refused without ending the wait, so a stray or
 * hostile local request cannot cancel a login.
 */
export const startLoopbackRedirect = async (options: { timeoutMs?: number } = {}): Promise<LoopbackRedirect> => {
  const timeoutMs = options.timeoutMs ?? 5 * 60_000;
  const waiters = new Map<string, Waiter>();
  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    response.setHeader('Content-Type', 'text/html; charset=utf-8');
    response.setHeader('Cache-Control', 'no-store');
    const state = url.searchParams.get('state') ?? '';
    const waiter = url.pathname === '/oidc/callback' ? waiters.get(state) : undefined;
    if (waiter === undefined) {
      response.statusCode = 400;
      response.end(page('Unexpected request', 'This address only receives the answer to a sign-in started in the workbench.'));
      return;
    }
    waiters.delete(state);
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error !== null || code === null) {
      response.end(page('Sign-in failed', 'The identity provider did not sign you in. Return to the workbench for details.'));
      waiter.reject(failure(`the provider answered ${error ?? 'without a code'}`));
      return;
    }
    response.end(page('Signed in', 'You can close this tab and return to the workbench.'));
    waiter.resolve({ code, state });
  };
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}/oidc/callback`,
    waitForCode: (state) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(state);
          reject(failure('no answer from the browser in time'));
        }, timeoutMs);
        waiters.set(state, {
          resolve: (value) => {
            clearTimeout(timer);
            resolve(value);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const waiter of waiters.values()) waiter.reject(failure('the login was cancelled'));
        waiters.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
