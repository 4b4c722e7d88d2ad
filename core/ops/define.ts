import type { z } from 'zod';
import type { App } from '../app.ts';
import type { ErrorCode } from '../errors.ts';
import type { Logger } from '../log.ts';

/** Tiers in increasing power; `public` needs no credential at all (health routes only). */
export const tiers = ['public', 'free', 'api', 'admin'] as const;
export type Tier = (typeof tiers)[number];
export const tierAtLeast = (have: Tier, need: Tier): boolean => tiers.indexOf(have) >= tiers.indexOf(need);

/** Who is calling. Comes from the transport's authentication, never from the request body. */
export type Actor = {
  readonly kind: 'local' | 'apiKey' | 'session' | 'anonymous';
  readonly id: string;
  readonly tier: Tier;
  /** Extra grants beyond the tier, e.g. 'scim' for an IdP's provisioning key. */
  readonly scopes: readonly string[];
  readonly subject?: string;
};

export type OpContext = {
  readonly app: App;
  readonly actor: Actor;
  readonly log: Logger;
  readonly signal: AbortSignal;
  /** Reports progress of a long operation to whoever started it (IPC event or server-sent event). */
  readonly progress: (done: number, total: number | null, message?: string) => void;
};

export type OpResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: { readonly code: ErrorCode; readonly message: string } };

/** Public REST exposure of an op (spec paths with their exact statuses and error bodies). */
export type HttpBinding = {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Fastify path syntax, e.g. `/v1/risk/cec/:bundle_id`. */
  readonly path: string;
  /** Success status (default 200). */
  readonly status?: number;
  /** Name of the error field in the body: the spec uses `error` for PII and `detail` for CEC. */
  readonly errorField?: 'error' | 'detail';
  /** Status for input that fails the schema (default 400; the CEC routes want 422). */
  readonly validationStatus?: number;
  /** Builds the op input from the request; default merges query, body (when an object) and params. */
  readonly input?: (request: { body: unknown; query: unknown; params: unknown; headers: Record<string, unknown> }) => unknown;
};

export type Operation<I extends z.ZodType, O> = {
  readonly summary: string;
  readonly input: I;
  /** Writes are audited; reads are not. */
  readonly access: 'read' | 'write';
  /** The least tier allowed to call it. */
  readonly tier: Tier;
  /** A scope that also grants the call regardless of tier (e.g. 'scim'). */
  readonly scope?: string;
  readonly handler: (input: z.output<I>, ctx: OpContext) => Promise<O>;
  readonly http?: HttpBinding;
};

export const defineOp = <I extends z.ZodType, O>(op: Operation<I, O>): Operation<I, O> => op;
