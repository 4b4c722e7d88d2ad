import type { AppEventName, AppEvents } from '../../../core/app.ts';
import type { ErrorCode } from '../../../core/errors.ts';
import type { OpName, OpResult, SessionApi, SessionInfo, Transport } from '../transport/transport.ts';

/** A Transport for store tests: answers ops from a table of handlers and records every call. */
export type FakeTransport = Transport & {
  readonly calls: { readonly name: OpName; readonly input: unknown }[];
  readonly sessionCalls: string[];
  /** Delivers an event to the store's subscribers, as the core's progress events arrive. */
  emit<E extends AppEventName>(name: E, payload: AppEvents[E]): void;
};

/** Answers one op; may be async, so a test can hold an answer back and release it later. */
export type FakeOp = (input: unknown) => OpResult<unknown> | Promise<OpResult<unknown>>;

/** A success and a failure as the transports report them. */
export const ok = (value: unknown): OpResult<unknown> => ({ ok: true, value });
export const fail = (code: ErrorCode, message: string): OpResult<unknown> => ({ ok: false, error: { code, message } });

export const signedOut: SessionInfo = {
  authenticated: false,
  subject: '',
  tier: 'free',
  sso: { required: 'off', saml: false, oidc: false },
};

export const fakeTransport = (options: { ops?: Partial<Record<OpName, FakeOp>>; session?: Partial<SessionApi> } = {}): FakeTransport => {
  const calls: FakeTransport['calls'] = [];
  const sessionCalls: string[] = [];
  let current: SessionInfo = signedOut;
  const listeners = new Set<{ name: AppEventName; listener: (payload: never) => void }>();
  const call: Transport['call'] = async (name, input) => {
    calls.push({ name, input });
    const handler = options.ops?.[name];
    return ((await handler?.(input)) ?? fail('NOT_FOUND', `no fake for ${name}`)) as never;
  };
  return {
    kind: 'http',
    calls,
    sessionCalls,
    call,
    subscribe: (name, listener) => {
      const entry = { name, listener };
      listeners.add(entry);
      return () => void listeners.delete(entry);
    },
    emit: (name, payload) => {
      for (const entry of listeners) if (entry.name === name) entry.listener(payload as never);
    },
    // The file goes to the fake's 'cec.verifyUpload' handler, as the IPC transport sends it.
    verifyBundleFile: (file) => call('cec.verifyUpload', { file } as never) as never,
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
