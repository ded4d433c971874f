/**
 * The QR signing keys: the secret's JSON, the local literal, and Secrets Manager read through the
 * real SDK client from an endpoint that speaks its JSON protocol (as LocalStack does), with the
 * five-minute cache that lets a rotation reach every function without a redeploy.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  parseSigningKeys,
  qrSigningKeys,
  SIGNING_KEYS_TTL_MS,
  verificationKeys,
} from '../../shared/data/qr-signing-keys';

const CURRENT = 'c'.repeat(32);
const PREVIOUS = 'p'.repeat(32);

describe('parseSigningKeys', () => {
  test('reads current, and previous during a rotation', () => {
    expect(parseSigningKeys(JSON.stringify({ current: CURRENT }))).toEqual({ current: CURRENT });
    expect(parseSigningKeys(JSON.stringify({ current: CURRENT, previous: PREVIOUS }))).toEqual({
      current: CURRENT,
      previous: PREVIOUS,
    });
  });

  test.each([
    ['not JSON', 'current=abc'],
    ['no current', '{}'],
    ['a short current', JSON.stringify({ current: 'short' })],
    ['a number', '{"current": 12345678901234567890}'],
    ['a short previous', JSON.stringify({ current: CURRENT, previous: 'x' })],
  ])('refuses %s', (_what, json) => {
    expect(() => parseSigningKeys(json)).toThrow(/QR signing secret/);
  });

  test('a signature verifies with current first, then previous', () => {
    expect(verificationKeys({ current: CURRENT, previous: PREVIOUS })).toEqual([CURRENT, PREVIOUS]);
    expect(verificationKeys({ current: CURRENT })).toEqual([CURRENT]);
  });
});

describe('qrSigningKeys', () => {
  let server: Server;
  let secretString = JSON.stringify({ current: CURRENT });
  const requests: { target: string | undefined; body: Record<string, unknown> }[] = [];
  const saved = { ...process.env };

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        requests.push({ target: request.headers['x-amz-target'] as string | undefined, body: JSON.parse(body) });
        response.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
        response.end(
          JSON.stringify({ ARN: 'arn:aws:secretsmanager:us-east-1:1:secret:qr', SecretString: secretString }),
        );
      });
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    Object.assign(process.env, {
      AWS_ENDPOINT_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    });
  });
  afterAll(async () => {
    process.env = saved;
    await new Promise((closed) => server.close(closed));
  });

  const arnEnv = { QR_SIGNING_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:1:secret:qr' };

  test('the local runtime literal wins, and needs no AWS call', async () => {
    const keys = await qrSigningKeys({ ...arnEnv, QR_SIGNING_SECRET: JSON.stringify({ current: PREVIOUS }) }, 0);
    expect(keys).toEqual({ current: PREVIOUS });
    expect(requests).toHaveLength(0);
  });

  test('reads the secret by its ARN, then serves it from the cache for five minutes', async () => {
    const start = 1_000_000;
    expect(await qrSigningKeys(arnEnv, start)).toEqual({ current: CURRENT });
    expect(requests).toEqual([
      { target: 'secretsmanager.GetSecretValue', body: { SecretId: arnEnv.QR_SIGNING_SECRET_ARN } },
    ]);

    secretString = JSON.stringify({ current: 'n'.repeat(32), previous: CURRENT });
    expect(await qrSigningKeys(arnEnv, start + SIGNING_KEYS_TTL_MS - 1)).toEqual({ current: CURRENT });
    expect(requests).toHaveLength(1);

    // After five minutes the rotation is seen: new codes are signed with the new key.
    expect(await qrSigningKeys(arnEnv, start + SIGNING_KEYS_TTL_MS)).toEqual({
      current: 'n'.repeat(32),
      previous: CURRENT,
    });
    expect(requests).toHaveLength(2);
  });

  test('without an ARN or a literal, the route says what is missing', async () => {
    await expect(qrSigningKeys({}, 0)).rejects.toThrow(/QR_SIGNING_SECRET_ARN/);
  });
});
