/**
 * Where an audited change comes from (shared/http/caller.ts): behind CloudFront the viewer's address
 * from CloudFront-Viewer-Address (IPv4 and IPv6, its port dropped), else the connection's; the
 * User-Agent as sent, bounded.
 */
import { callerOf, MAX_USER_AGENT, viewerAddressOf } from '../../shared/http/caller';
import type { ApiEvent } from '../../shared/http/middlewares';

const eventWith = (headers: Record<string, string>, sourceIp = '130.176.0.9'): ApiEvent =>
  ({ headers, requestContext: { http: { sourceIp, userAgent: headers['user-agent'] ?? '' } } }) as unknown as ApiEvent;

test("the viewer's address behind CloudFront, the connection's without it", () => {
  expect(viewerAddressOf('203.0.113.9:46532')).toBe('203.0.113.9');
  expect(viewerAddressOf('2001:db8:85a3::8a2e:370:7334:46532')).toBe('2001:db8:85a3::8a2e:370:7334');
  expect(viewerAddressOf(undefined)).toBeUndefined();
  expect(viewerAddressOf('')).toBeUndefined();
  expect(callerOf(eventWith({ 'cloudfront-viewer-address': '198.51.100.7:443', 'user-agent': 'curl/8' }))).toEqual({
    ipAddress: '198.51.100.7',
    userAgent: 'curl/8',
  });
  expect(callerOf(eventWith({}, '192.0.2.1'))).toEqual({ ipAddress: '192.0.2.1', userAgent: '' });
  expect(callerOf(eventWith({ 'user-agent': 'x'.repeat(5000) })).userAgent).toHaveLength(MAX_USER_AGENT);
});
