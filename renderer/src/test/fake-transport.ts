import type { OpName, OpResult, SessionApi, SessionInfo, Transport } from '../transport/transport.ts';

/** A Transport for store tests: answers ops from a table of handlers and records every call. */
export type FakeTransport = Transport & {
  readonly calls: { readonly name: OpName; readonly input: unknown }[];
  readonly sessionCalls: string[];
};

export const signedOut: SessionInfo = {
  authenticated: false,
  subject: '',
  tier: 'free',
  sso: { required: 'off', saml: false, oidc: false },
};

export const fakeTransport = (
  options: { ops?: Partial<Record<OpName, (input: unknown) => OpResult<unknown>>>; session?: Partial<SessionApi> } = {},
): FakeTransport => {
  const calls: FakeTransport['calls'] = [];
  const sessionCalls: string[] = [];
  let current: SessionInfo = signedOut;
  return {
    kind: 'http',
    calls,
    sessionCalls,
    call: async (name, input) => {
      calls.push({ name, input });
      const handler = options.ops?.[name];
      return (handler?.(input) ?? { ok: false, error: { code: 'NOT_FOUND', message: `no fake for ${name}` } }) as never;
    },
    subscribe: () => () => {},
    session: {
      current: options.session?.current ?? (async () => current),
      loginWithKey:
        options.session?.loginWithKey ??
        (async (key) => {
          sessionCalls.push(`login ${key}`);
          if (key !== 'good-key') return false;
          current = { ...signedOut, authenticated: true, subject: 'key:admin', tier: 'admin' };
          return true;
        }),
      logout:
        options.session?.logout ??
        (async () => {
          sessionCalls.push('logout');
          current = signedOut;
        }),
    },
  };
};
