/**
 * Where a request comes from, for its audit events (docs/audit.md): the caller's address and the
 * User-Agent it sent. Deployed, the clients reach the API through CloudFront (the dashboard's
 * distribution, the stage's edge), so the connection API Gateway sees (`sourceIp`) is CloudFront's;
 * the viewer's own address is the `CloudFront-Viewer-Address` header CloudFront adds (the API
 * behaviours' origin request policy, AllViewerExceptHostHeader, forwards it: infra/constructs/
 * dashboard-site.ts). Without it (a caller of execute-api itself, the local server), the connection's
 * address is the caller's.
 */
import type { ApiEvent } from './middlewares';

export interface Caller {
  readonly ipAddress: string;
  readonly userAgent: string;
}

/** The longest User-Agent kept: enough for any browser's, not an unbounded value in every event. */
export const MAX_USER_AGENT = 512;

const VIEWER_ADDRESS = 'cloudfront-viewer-address';

/**
 * `CloudFront-Viewer-Address` is `<ip>:<port>`, the IPv6 address unbracketed (`2001:db8::1:443`):
 * the address is everything before the last colon.
 */
export function viewerAddressOf(header: string | undefined): string | undefined {
  const value = header?.trim();
  const colon = value?.lastIndexOf(':') ?? -1;
  return value && colon > 0 ? value.slice(0, colon) : undefined;
}

export function callerOf(event: ApiEvent): Caller {
  const headers = event.headers ?? {};
  const viewer = viewerAddressOf(headers[VIEWER_ADDRESS]);
  return {
    ipAddress: viewer ?? event.requestContext.http.sourceIp,
    userAgent: (headers['user-agent'] ?? event.requestContext.http.userAgent ?? '').slice(0, MAX_USER_AGENT),
  };
}
