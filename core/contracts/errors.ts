/**
 * The error vocabulary every boundary shares (core, HTTP, the renderer): stable codes and the HTTP status each
 * maps to. Here, not in core/errors.ts, so the renderer can read a route's status back as a code.
 */
export const errorCodes = [
  'VALIDATION',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNPROCESSABLE',
  'UNAVAILABLE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export const httpStatusFor = (code: ErrorCode): number => {
  switch (code) {
    case 'VALIDATION':
      return 400;
    case 'UNAUTHENTICATED':
      return 401;
    case 'FORBIDDEN':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'CONFLICT':
      return 409;
    case 'PAYLOAD_TOO_LARGE':
      return 413;
    case 'UNPROCESSABLE':
      return 422;
    case 'UNAVAILABLE':
      return 503;
    case 'INTERNAL':
      return 500;
    default:
      throw new TypeError(`Unhandled error code: ${String(code satisfies never)}`);
  }
};

/** The code of an HTTP error status (the inverse of httpStatusFor; INTERNAL for a status no code maps to). */
export const errorCodeForStatus = (status: number): ErrorCode =>
  status === 415 ? 'VALIDATION' : (errorCodes.find((code) => httpStatusFor(code) === status) ?? 'INTERNAL');
