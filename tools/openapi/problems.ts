/**
 * Which problem codes an operation can answer, by status. A route declares the codes of its own
 * rules (the route table, functions/routes/, `problems`; one raised as its other kind at that kind's
 * status); the rest follow from what the HTTP chain does with any route of its shape (shared/http/,
 * infra/local/server.ts), and are added here:
 *
 * - every route: a token is checked (401), the query string is validated and unknown parameters are
 *   refused (400), the tenant's limit and the stage's throttling apply (429), and so do the limit on
 *   the request line and headers (431), an unexpected failure (500) and DynamoDB not answering (503);
 * - a route with scopes: a token without them (403 INSUFFICIENT_SCOPE);
 * - a route with a body: it must be JSON (415), well formed (400), within 64 KiB (413), and valid;
 * - a POST: Idempotency-Key, whose value is checked (400) and which may name another request or one
 *   still running (409);
 * - a path with an id: an id of nothing (404 NOT_FOUND, also for a value that is no id at all) or of
 *   another client's record (403 FORBIDDEN).
 *
 * The tests hold the route's list to account: a response with a code the document does not list for
 * its operation and status fails them (test/support/contract.ts).
 */
import type { RouteDefinition } from '../../functions/routes';
import { ERROR_CATALOG, type ErrorCode } from '../../shared/domain/errors';
import { statusOf, statusOfKind } from '../../shared/http/problem';

const EVERY_ROUTE: readonly ErrorCode[] = [
  'UNAUTHORIZED',
  'VALIDATION_FAILED',
  'RATE_LIMITED',
  'HEADERS_TOO_LARGE',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
];
const WITH_SCOPES: readonly ErrorCode[] = ['INSUFFICIENT_SCOPE'];
const WITH_BODY: readonly ErrorCode[] = ['MALFORMED_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];
const POST: readonly ErrorCode[] = ['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_REQUEST_IN_PROGRESS'];
const WITH_PATH_IDS: readonly ErrorCode[] = ['NOT_FOUND', 'FORBIDDEN'];

/**
 * The codes that are the same for every operation that can answer them: the document describes them
 * once, as shared responses, and each operation refers to those of its shape.
 */
export const SHARED_STATUSES: ReadonlyMap<number, ErrorCode> = new Map(
  (
    [
      'UNAUTHORIZED',
      'PAYLOAD_TOO_LARGE',
      'UNSUPPORTED_MEDIA_TYPE',
      'RATE_LIMITED',
      'HEADERS_TOO_LARGE',
      'INTERNAL_ERROR',
      'SERVICE_UNAVAILABLE',
    ] as const
  ).map((code) => [statusOf(code), code]),
);

const CATALOG_ORDER = Object.keys(ERROR_CATALOG);

/** Every code the route can answer, by status, each list in the order of the error catalog. */
export function problemsOf(
  route: Pick<RouteDefinition, 'method' | 'scopes' | 'schemas' | 'problems'>,
  path: string,
): Map<number, ErrorCode[]> {
  const chain = [
    ...EVERY_ROUTE,
    ...(route.scopes.length > 0 ? WITH_SCOPES : []),
    ...(route.schemas.body !== null ? WITH_BODY : []),
    ...(route.method === 'POST' ? POST : []),
    ...(path.includes('{') ? WITH_PATH_IDS : []),
  ];
  const statuses = [
    ...chain.map((code) => [code, statusOf(code)] as const),
    ...route.problems.map((p) =>
      typeof p === 'string' ? ([p, statusOf(p)] as const) : ([p.code, statusOfKind(p.kind)] as const),
    ),
  ];
  const byStatus = new Map<number, ErrorCode[]>();
  const ordered = [...statuses].sort(([a], [b]) => CATALOG_ORDER.indexOf(a) - CATALOG_ORDER.indexOf(b));
  for (const [code, status] of ordered) {
    const codes = byStatus.get(status) ?? [];
    if (!codes.includes(code)) byStatus.set(status, [...codes, code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}
