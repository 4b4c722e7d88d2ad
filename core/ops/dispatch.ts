import { randomUUID } from 'node:crypto';
import type { App } from '../app.ts';
import { AppError, describeZodError } from '../errors.ts';
import { authorizeActor } from './authorize.ts';
import type { Actor, AnyOperation, OpContext, OpResult } from './define.ts';
import { isOpName, type OpInput, type OpName, type OpOutput, operations } from './table.ts';

export type CallContext = {
  readonly app: App;
  readonly actor: Actor;
  /** Correlates progress events with the caller's request; generated when absent. */
  readonly requestId?: string;
  readonly signal?: AbortSignal;
};

export { describeZodError };

export const lookupOp = (name: unknown): AnyOperation => {
  if (!isOpName(name)) throw new AppError('NOT_FOUND', `Unknown operation: ${String(name).slice(0, 100)}`);
  return operations[name];
};

export const authorize = (op: AnyOperation, actor: Actor): void =>
  authorizeActor(op.scope === undefined ? { tier: op.tier } : { tier: op.tier, scope: op.scope }, actor);

/** Anything thrown becomes an AppError; unknown errors are logged with their stack and hidden behind a generic message. */
export const toAppError = (error: unknown, ctx: { app: App; op: string }): AppError => {
  if (error instanceof AppError) return error;
  ctx.app.log.error({ op: ctx.op, err: error }, 'operation failed unexpectedly');
  return new AppError('INTERNAL', 'Internal error', { cause: error });
};

/**
 * Runs one operation: look up, authorize, validate, handle. Throws AppError; adapters that need an envelope
 * use `dispatch`, protocol routes that need the error itself (status overrides, SCIM types) use this.
 */
export const invoke = async (name: unknown, input: unknown, call: CallContext): Promise<unknown> => {
  const op = lookupOp(name);
  const opName = String(name);
  authorize(op, call.actor);
  const parsed = op.input.safeParse(input);
  if (!parsed.success) throw new AppError('VALIDATION', describeZodError(parsed.error), { cause: parsed.error });
  const requestId = call.requestId ?? randomUUID();
  const started = performance.now();
  // One line per call, with the op's bindings inline: a child logger per call cost every request its creation.
  const logOutcome = (level: 'info' | 'debug', outcome: string): void =>
    call.app.log[level]({ op: opName, requestId, actor: call.actor.id, ms: Math.round(performance.now() - started), outcome }, 'op');
  const ctx: OpContext = {
    app: call.app,
    actor: call.actor,
    signal: call.signal ?? new AbortController().signal,
    progress: (done, total, message = '') =>
      call.app.events.emit('progress', { requestId, op: opName, done, total, message, actorId: call.actor.id }),
  };
  try {
    const value = await op.handler(parsed.data, ctx);
    logOutcome(op.access === 'write' ? 'info' : 'debug', 'ok');
    return value;
  } catch (error) {
    const appError = toAppError(error, { app: call.app, op: opName });
    logOutcome('info', appError.code);
    throw appError;
  }
};

/**
 * `invoke` for in-process callers (the SDK, the CLI): the name, input and result typed from the ops table. The
 * input is still validated: the types help callers, the schema guards the core.
 */
export const invokeOp = <N extends OpName>(name: N, input: OpInput<N>, call: CallContext): Promise<OpOutput<N>> =>
  invoke(name, input, call) as Promise<OpOutput<N>>;

/** The one entry point every transport calls; results travel as values, never as thrown errors. */
export const dispatch = async (name: unknown, input: unknown, call: CallContext): Promise<OpResult<unknown>> => {
  try {
    return { ok: true, value: await invoke(name, input, call) };
  } catch (error) {
    const appError = toAppError(error, { app: call.app, op: String(name) });
    return { ok: false, error: { code: appError.code, message: appError.message } };
  }
};
