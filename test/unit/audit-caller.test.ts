/**
 * Where an audited change comes from (shared/http/caller.ts): behind CloudFront the viewer's address
 * from CloudFront-Viewer-Address (IPv4 and IPv6, its port dropped), else the connection's; the
 * User-Agent as sent, bounded. And the hash chain's canonical JSON (shared/data/audit-chain.ts):
 * keys sorted at every depth, undefined fields left out, so the same event always hashes the same.
 */
import { callerOf, MAX_USER_AGENT, viewerAddressOf } from '../../shared/http/caller';
import { auditEventHash, canonicalJson, HASHED_FIELDS } from '../../shared/data/audit-chain';
import type { ApiEvent } from '../../shared/http/middlewares';
import { auditEventSchema } from '../../shared/schemas/audit';

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

test('canonical JSON sorts keys at every depth and leaves undefined out; the hash covers every shown field', () => {
  expect(canonicalJson({ b: 1, a: { d: [2, { f: 'x', e: null }], c: undefined } })).toBe(
    '{"a":{"d":[2,{"e":null,"f":"x"}]},"b":1}',
  );
  const event = { id: 'e1', actor: 'ana', previous_hash: '0'.repeat(64), created_at: '2026-01-01T00:00:00.000Z' };
  // Whatever the keys' order, and whatever is stored beside the shown fields (the tenant, index keys).
  const reordered = { ...Object.fromEntries(Object.entries(event).reverse()), tenant: 'ignored' };
  expect(auditEventHash(event)).toBe(auditEventHash(reordered));
  expect(auditEventHash(event)).not.toBe(auditEventHash({ ...event, actor: 'eva' }));
  // Every field the API shows but the hash itself is hashed: a field added to events must be added there.
  expect([...HASHED_FIELDS].sort()).toEqual(
    Object.keys(auditEventSchema.properties)
      .filter((name) => name !== 'hash')
      .sort(),
  );
});
