import type { z } from 'zod';
import type { App } from '../app.ts';
import type { ErrorCode } from '../errors.ts';

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
  // A method, not a function property: an op that takes its own input is then usable where any op is expected
  // (dispatch, routes, OpenAPI), since dispatch validates the input with `input` before calling it.
  handler(input: z.output<I>, ctx: OpContext): Promise<O>;
  readonly http?: HttpBinding;
};

/** Any operation, as dispatch, the routes and the OpenAPI document see it. */
export type AnyOperation = Operation<z.ZodType, unknown>;
export type OpSlice = Readonly<Record<string, AnyOperation>>;

export const defineOp = <I extends z.ZodType, O>(op: Operation<I, O>): Operation<I, O> => op;

type Merged<S extends readonly OpSlice[]> = S extends readonly [infer Head extends OpSlice, ...infer Tail extends readonly OpSlice[]]
  ? Head & Merged<Tail>
  : unknown;

/** The domains' slices as one table; a name defined twice is an error at start-up, not a silent override. */
export const combine = <const S extends readonly OpSlice[]>(...slices: S): { readonly [K in keyof Merged<S>]: Merged<S>[K] } => {
  const table: Record<string, AnyOperation> = {};
  for (const slice of slices) {
    for (const [name, op] of Object.entries(slice)) {
      if (Object.hasOwn(table, name)) throw new TypeError(`Operation ${name} is defined twice`);
      table[name] = op;
    }
  }
  return table as { readonly [K in keyof Merged<S>]: Merged<S>[K] };
};
