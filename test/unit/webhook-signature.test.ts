/**
 * The Standard Webhooks signature (shared/domain/webhook-signature.ts), checked by the reference
 * library (`standardwebhooks`), not by our own code: what we send verifies, one signature per secret
 * during a rotation (each verifying alone), and Standard Webhooks' published vector comes out byte for byte.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { signatureOf, signedHeaders } from '../../shared/domain/webhook-signature';

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const BODY = JSON.stringify({
  id: 'evt_1',
  type: 'payment.settled',
  created_at: '2026-11-23T10:00:00.000Z',
  data: { amount: { value: '12500.00', currency: 'COP' }, note: 'café ☕ 𝄞' },
});

/** The library's answer: the parsed body when a signature verifies, else the error it threw. */
function verify(secret: string, body: string, headers: Record<string, string>): unknown {
  try {
    return new Webhook(secret).verify(body, headers);
  } catch (error) {
    return error;
  }
}

test('what we sign verifies with the standardwebhooks package', () => {
  const secret = newSecret();
  const headers = signedHeaders('evt_1', nowSeconds(), BODY, [secret]);
  expect(Object.keys(headers).sort()).toEqual(['webhook-id', 'webhook-signature', 'webhook-timestamp']);
  expect(headers['webhook-id']).toBe('evt_1');
  expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  expect(verify(secret, BODY, { ...headers })).toEqual(JSON.parse(BODY));
});

test('another secret, another body, id or timestamp does not verify', () => {
  const secret = newSecret();
  const timestamp = nowSeconds();
  const headers = { ...signedHeaders('evt_1', timestamp, BODY, [secret]) };
  expect(verify(newSecret(), BODY, headers)).toBeInstanceOf(Error);
  expect(verify(secret, BODY.replace('12500.00', '12500.01'), headers)).toBeInstanceOf(Error);
  expect(verify(secret, BODY, { ...headers, 'webhook-id': 'evt_2' })).toBeInstanceOf(Error);
  expect(verify(secret, BODY, { ...headers, 'webhook-timestamp': String(timestamp + 1) })).toBeInstanceOf(Error);
});

test('two secrets (a rotation): two signatures, space-separated, each verifying alone', () => {
  const [current, previous] = [newSecret(), newSecret()];
  const headers = signedHeaders('evt_1', nowSeconds(), BODY, [current, previous]);
  const signatures = headers['webhook-signature'].split(' ');
  expect(signatures).toHaveLength(2);
  expect(signatures[0]).not.toBe(signatures[1]);
  // The full header verifies under either secret...
  expect(verify(current, BODY, { ...headers })).toEqual(JSON.parse(BODY));
  expect(verify(previous, BODY, { ...headers })).toEqual(JSON.parse(BODY));
  // ...and each signature alone under its own secret, not under the other.
  const alone = (signature: string) => ({ ...headers, 'webhook-signature': signature });
  expect(verify(current, BODY, alone(signatures[0]!))).toEqual(JSON.parse(BODY));
  expect(verify(previous, BODY, alone(signatures[1]!))).toEqual(JSON.parse(BODY));
  expect(verify(current, BODY, alone(signatures[1]!))).toBeInstanceOf(Error);
  expect(verify(previous, BODY, alone(signatures[0]!))).toBeInstanceOf(Error);
});

test('the Standard Webhooks published vector, and the package agrees with us on any message', () => {
  // The example of the Standard Webhooks specification (and Svix's documentation).
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const [id, timestamp, body] = ['msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'];
  const expected = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
  expect(new Webhook(secret).sign(id, new Date(timestamp * 1000), body)).toBe(expected);
  expect(signedHeaders(id, timestamp, body, [secret])).toEqual({
    'webhook-id': id,
    'webhook-timestamp': '1614265330',
    'webhook-signature': expected,
  });
  const other = newSecret();
  expect(signatureOf(other, `evt_9.1700000000.${BODY}`)).toBe(
    new Webhook(other).sign('evt_9', new Date(1700000000 * 1000), BODY),
  );
});

test('a secret without whsec_, or no secret at all, signs nothing', () => {
  expect(() => signedHeaders('evt_1', nowSeconds(), BODY, ['MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'])).toThrow(/whsec_/);
  expect(() => signedHeaders('evt_1', nowSeconds(), BODY, [])).toThrow(/no secret/);
});
