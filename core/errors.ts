import type { z } from 'zod';
import type { ErrorCode } from './contracts/errors.ts';

/**
 * One error vocabulary for the whole core. Every failure that crosses a boundary (IPC, HTTP, CLI) is an
 * AppError with a stable code; the adapters turn codes into statuses. Domain families named by the spec
 * (SFCECError, SFIdentityError) are AppErrors too, so callers may catch either.
 */
export { type ErrorCode, errorCodes, httpStatusFor } from './contracts/errors.ts';

export type AppErrorOptions = {
  readonly cause?: unknown;
  /** Overrides the HTTP status that the code maps to (e.g. a spec that wants 422 for a validation error). */
  readonly status?: number;
  /** Machine-readable detail for protocol adapters (SCIM scimType, for example). */
  readonly detail?: Readonly<Record<string, unknown>>;
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number | undefined;
  readonly detail: Readonly<Record<string, unknown>> | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = options.status;
    this.detail = options.detail;
  }
}

/** Base of all compliance-evidence-chain errors (spec section 7). */
export class SFCECError extends AppError {
  constructor(message: string, options: AppErrorOptions & { code?: ErrorCode } = {}) {
    super(options.code ?? 'INTERNAL', message, options);
    this.name = 'SFCECError';
  }
}
/** ZIP write or HMAC failure while building; unknown bundle or deleted ZIP on reissue. */
export class SFCECBuildError extends SFCECError {
  constructor(message: string, options: AppErrorOptions & { code?: ErrorCode } = {}) {
    super(message, options);
    this.name = 'SFCECBuildError';
  }
}
/** Bundle file missing or unreadable. */
export class SFCECVerifyError extends SFCECError {
  constructor(message: string, options: AppErrorOptions & { code?: ErrorCode } = {}) {
    super(message, options);
    this.name = 'SFCECVerifyError';
  }
}
/** DPA generation or export failure. */
export class SFCECExportError extends SFCECError {
  constructor(message: string, options: AppErrorOptions & { code?: ErrorCode } = {}) {
    super(message, options);
    this.name = 'SFCECExportError';
  }
}
/** Base of all identity errors (spec section 4.4). */
export class SFIdentityError extends AppError {
  constructor(message: string, options: AppErrorOptions & { code?: ErrorCode } = {}) {
    super(options.code ?? 'VALIDATION', message, options);
    this.name = 'SFIdentityError';
  }
}

/**
 * Options to re-wrap `error` in another AppError without losing what callers act on: the cause, and the code,
 * status and detail when it is an AppError (a TSA outage stays UNAVAILABLE, a missing bundle NOT_FOUND).
 */
export const wrapOptions = (error: unknown): AppErrorOptions & { code?: ErrorCode } =>
  error instanceof AppError
    ? {
        cause: error,
        code: error.code,
        ...(error.status === undefined ? {} : { status: error.status }),
        ...(error.detail === undefined ? {} : { detail: error.detail }),
      }
    : { cause: error };

/** Exhaustiveness guard for switches over unions. */
export function missingCase(value: never): never {
  throw new TypeError(`Unhandled case: ${String(value)}`);
}

/** The one account of why input failed its schema: field paths and messages, never the values, at most `limit`. */
export const describeZodError = (error: z.ZodError, limit = 5): string =>
  error.issues
    .slice(0, limit)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
