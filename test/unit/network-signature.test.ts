/**
 * The network connector's signatures (docs/network.md, "Signatures"): Standard Webhooks both ways,
 * a timestamp over 5 minutes away refused, and during a rotation the previous secret valid until its
 * expiry, then no longer.
 */
import { parseNetworkSecret, signingSecrets } from '../../shared/data/network-secret';
import { signedHeaders, verifySignedMessage } from '../../shared/domain/webhook-signature';

const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const other = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const body = '{"end_to_end_id":"E1"}';
const now = 1_800_000_000;

test('a message signed with the secret verifies; with another secret, or changed, it does not', () => {
  const headers = signedHeaders('msg_1', now, body, [secret]);
  expect(verifySignedMessage({ ...headers }, body, [secret], now)).toEqual({ valid: true });
  expect(verifySignedMessage({ ...headers }, body, [other], now).valid).toBe(false);
  expect(verifySignedMessage({ ...headers }, `${body} `, [secret], now).valid).toBe(false);
  expect(verifySignedMessage({ ...headers, 'webhook-id': 'msg_2' }, body, [secret], now).valid).toBe(false);
});

test('missing headers and timestamps over 5 minutes away, either way, are refused', () => {
  const headers = signedHeaders('msg_1', now, body, [secret]);
  expect(verifySignedMessage({ ...headers, 'webhook-signature': undefined }, body, [secret], now)).toMatchObject({
    valid: false,
    reason: expect.stringContaining('required'),
  });
  expect(verifySignedMessage({ ...headers }, body, [secret], now + 300).valid).toBe(true);
  expect(verifySignedMessage({ ...headers }, body, [secret], now + 301)).toMatchObject({
    valid: false,
    reason: expect.stringContaining('300 s'),
  });
  expect(verifySignedMessage({ ...headers }, body, [secret], now - 301).valid).toBe(false);
  expect(verifySignedMessage({ ...headers, 'webhook-timestamp': '17e8' }, body, [secret], now).valid).toBe(false);
});

test('during a rotation both secrets sign and verify, until the previous one expires', () => {
  const value = parseNetworkSecret(
    JSON.stringify({ current: 'A'.repeat(64), previous: 'B'.repeat(64), previous_expires_at: '2027-01-02T00:00:00Z' }),
  );
  const before = Date.parse('2027-01-01T23:59:59Z');
  const after = Date.parse('2027-01-02T00:00:00Z');
  expect(signingSecrets(value, before)).toEqual([`whsec_${'A'.repeat(64)}`, `whsec_${'B'.repeat(64)}`]);
  expect(signingSecrets(value, after)).toEqual([`whsec_${'A'.repeat(64)}`]);
  // A bank still signing with the old secret is heard until then; a signature by either verifies.
  const byOld = signedHeaders('msg_1', now, body, [`whsec_${'B'.repeat(64)}`]);
  expect(verifySignedMessage({ ...byOld }, body, signingSecrets(value, before), now).valid).toBe(true);
  expect(verifySignedMessage({ ...byOld }, body, signingSecrets(value, after), now).valid).toBe(false);
});

test('a damaged secret is refused rather than signing with it', () => {
  expect(() => parseNetworkSecret('nope')).toThrow('not JSON');
  expect(() => parseNetworkSecret('{"current":"short"}')).toThrow('"current"');
  expect(() => parseNetworkSecret(JSON.stringify({ current: 'A'.repeat(64), previous: 'B'.repeat(64) }))).toThrow(
    'previous_expires_at',
  );
});
