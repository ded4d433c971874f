/**
 * The QR signing keys: the secret's JSON, the local literal, and Secrets Manager read through
 * Powertools Parameters and the real SDK client from an endpoint that speaks its JSON protocol (as
 * LocalStack does), with the five-minute cache that lets a rotation reach every function without a
 * redeploy (shared/data/secret-values.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { parseSigningKeys, qrSigningKeys, verificationKeys } from '../../shared/data/qr-signing-keys';
import { SECRET_MAX_AGE_SECONDS } from '../../shared/data/secret-values';

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

  /** Every timer but Date: the SDK's calls and sockets run on real time. */
  const REAL_TIMERS = [
    'hrtime',
    'nextTick',
    'performance',
    'queueMicrotask',
    'setImmediate',
    'clearImmediate',
    'setInterval',
    'clearInterval',
    'setTimeout',
    'clearTimeout',
  ] as const;

  const arnEnv = { QR_SIGNING_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:1:secret:qr' };

  test('the local runtime literal wins, and needs no AWS call', async () => {
    const keys = await qrSigningKeys({ ...arnEnv, QR_SIGNING_SECRET: JSON.stringify({ current: PREVIOUS }) });
    expect(keys).toEqual({ current: PREVIOUS });
    expect(requests).toHaveLength(0);
  });

  test('reads the secret by its ARN, then serves it from the cache for five minutes', async () => {
    // The cache's clock (Date), moved by hand; every timer stays real.
    let nowMs = 1_000_000;
    jest.useFakeTimers({ doNotFake: [...REAL_TIMERS], now: nowMs });
    try {
      expect(await qrSigningKeys(arnEnv)).toEqual({ current: CURRENT });
      expect(requests).toEqual([
        { target: 'secretsmanager.GetSecretValue', body: { SecretId: arnEnv.QR_SIGNING_SECRET_ARN } },
      ]);

      secretString = JSON.stringify({ current: 'n'.repeat(32), previous: CURRENT });
      jest.setSystemTime((nowMs += SECRET_MAX_AGE_SECONDS * 1000));
      expect(await qrSigningKeys(arnEnv)).toEqual({ current: CURRENT });
      expect(requests).toHaveLength(1);

      // Past five minutes the rotation is seen: new codes are signed with the new key.
      jest.setSystemTime((nowMs += 1000));
      expect(await qrSigningKeys(arnEnv)).toEqual({ current: 'n'.repeat(32), previous: CURRENT });
      expect(requests).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });

  test('without an ARN or a literal, the route says what is missing', async () => {
    await expect(qrSigningKeys({})).rejects.toThrow(/QR_SIGNING_SECRET_ARN/);
  });
});
