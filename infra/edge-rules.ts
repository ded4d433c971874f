/**
 * What the edge refuses before a request reaches the API's stage, in one place for the two that
 * apply it: the WAF web ACL in front of CloudFront (infra/edge-stack.ts) and the local server's model
 * of it (infra/local/edge-guard.ts). Plain data: no CDK here, so the local server loads it cheaply.
 */
import type { RouteDefinition } from '../functions/routes';
import { AppError, type ErrorCode } from '../shared/domain/errors';
import { problemOf, type Problem } from '../shared/http/problem';

/** A path the API serves only with a token: every path under `prefix`, or exactly `exact`. */
export type ProtectedPath = { readonly prefix: string } | { readonly exact: string };

/**
 * The paths of the routes behind the authorizer, as the edge matches them: `/v1/` and `/sandbox/`
 * for everything under them, and a route of one segment as itself (`/accounts`, the contract's
 * unversioned link call). The public description (/openapi.json, /docs) is no route of the table.
 */
export function protectedPaths(routes: readonly Pick<RouteDefinition, 'paths'>[]): ProtectedPath[] {
  const found = new Map<string, ProtectedPath>();
  for (const path of routes.flatMap((route) => route.paths)) {
    const segments = path.split('/').filter(Boolean);
    const rule = segments.length > 1 ? { prefix: `/${segments[0]}/` } : { exact: path };
    found.set(JSON.stringify(rule), rule);
  }
  return [...found.values()].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

export const isProtected = (rules: readonly ProtectedPath[], path: string): boolean =>
  rules.some((rule) => ('prefix' in rule ? path.startsWith(rule.prefix) : path === rule.exact));

/**
 * What the edge takes for a token: the Bearer scheme (any case, as HTTP schemes are) and a JWT, three
 * base64url parts joined by dots, as the authorizer will read it. Anything else (no header, an empty
 * one, `Authorization: x`, a bare word) is tokenless to the edge, refused before the stage's throttle
 * counts it. One expression that WAF's regex match (infra/edge-stack.ts) and the local edge
 * (infra/local/edge-guard.ts) both apply.
 */
export const BEARER_JWT_PATTERN = '^[Bb][Ee][Aa][Rr][Ee][Rr] +[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$';

const bearerJwt = new RegExp(BEARER_JWT_PATTERN);

/** Whether an Authorization header has the shape of a token (BEARER_JWT_PATTERN). */
export const hasBearerJwt = (authorization: string | undefined): boolean =>
  authorization !== undefined && bearerJwt.test(authorization);

/** The edge's two refusals, with the problem body both answer (the web ACL's is static: no request id). */
export const EDGE_REFUSALS = {
  /** A request to the API without a token's shape in its Authorization header: refused before the stage counts it. */
  tokenless: {
    code: 'UNAUTHORIZED',
    status: 401,
    detail: 'The request carries no access token; send one as Authorization: Bearer <token>',
    headers: { 'www-authenticate': 'Bearer' },
  },
  /** More requests from one address than the edge's per-IP rule allows. */
  perIpRate: {
    code: 'RATE_LIMITED',
    status: 429,
    detail: 'Too many requests from this address; slow down',
    // WAF counts over 5 minutes and looks again every few seconds: a minute is a fair wait.
    headers: { 'retry-after': '60' },
  },
} as const satisfies Record<
  string,
  { code: ErrorCode; status: number; detail: string; headers: Readonly<Record<string, string>> }
>;

export type EdgeRefusal = keyof typeof EDGE_REFUSALS;

/** The problem body of a refusal; `requestId` is `edge` in the web ACL's static answer. */
export const edgeProblem = (refusal: EdgeRefusal, requestId: string): Problem =>
  problemOf(new AppError(EDGE_REFUSALS[refusal].code, EDGE_REFUSALS[refusal].detail), requestId);
