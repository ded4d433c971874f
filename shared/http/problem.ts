/** RFC 9457 problem details: the one shape of every error answer. */
import { ERROR_CATALOG, type AppError, type ErrorCode, type ErrorKind } from '../domain/errors';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: ErrorCode;
  readonly request_id: string;
  readonly [extension: string]: unknown;
}

/** The status of a kind of failure. */
export const statusOfKind = (kind: ErrorKind): number => STATUS_BY_KIND[kind];

/** The status a code answers as its own kind (a rule may raise it as its other kind: kindsOf). */
export const statusOf = (code: ErrorCode): number => statusOfKind(ERROR_CATALOG[code].kind);

export function problemOf(
  error: Pick<AppError, 'code' | 'kind' | 'detail' | 'extensions'>,
  requestId: string,
): Problem {
  const { title } = ERROR_CATALOG[error.code];
  return {
    type: `urn:breb:problem:${error.code.toLowerCase()}`,
    title,
    status: statusOfKind(error.kind),
    detail: error.detail,
    code: error.code,
    ...error.extensions,
    request_id: requestId,
  };
}
