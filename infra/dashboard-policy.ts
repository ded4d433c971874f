/**
 * The dashboard page's Content-Security-Policy, one text for both places that serve it: the local
 * server and CloudFront's response headers. The page loads only its own files; its images are the
 * API's PNGs and the thumbnails' SVGs as data: URLs; it calls only its own origin (the API, and the
 * local token endpoint) and, on AWS, Cognito's token endpoint; no frame may hold it.
 */
export function dashboardContentSecurityPolicy(signInOrigin?: string): string {
  return [
    "default-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self'${signInOrigin ? ` ${signInOrigin}` : ''}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
