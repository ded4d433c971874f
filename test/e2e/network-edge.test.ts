/**
 * The network routes' edge (docs/network.md, "Signatures, both ways"; docs/security.md), through the
 * real local server in connector mode with the fake bank's keys: every refused signature (none, a
 * header missing, an unknown key, another key, a stale or future `created`, a body changed, headers
 * malformed, the simulator's scheme with a wrong secret) is the same 401, byte for byte but its
 * request id, and the reason is in our log alone. A path id over long or malformed, on each signed
 * route, is a clean 4xx, never a 500.
 */
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { generateSigningKey, signRequest, type SigningKey } from '../../shared/domain/message-signatures';
import { signedHeaders } from '../../shared/domain/webhook-signature';
import { FakeBank } from '../../tools/fake-bank';
import { startTestApi, type TestApi } from '../support/local-api';

let api: TestApi;
let bank: FakeBank;
const bankKey: SigningKey = generateSigningKey(`edge-bank-${randomUUID().slice(0, 8)}`);

beforeAll(async () => {
  bank = await FakeBank.start(() => api.url, { signingKey: bankKey });
  api = await startTestApi({
    network: { kind: 'connector', url: bank.url, bankKeys: JSON.stringify(bank.publicKeys) },
  });
});
afterAll(async () => {
  await api.stop();
  await bank.stop();
});

interface Sent {
  readonly status: number;
  readonly text: string;
  readonly headers: Headers;
}

/** Sends `body` to `path`, with the headers `sign` makes of the URL (by default the bank's signature). */
async function send(
  path: string,
  body: string,
  options: {
    readonly method?: string;
    readonly contentType?: string;
    readonly headers?: (signed: Record<string, string>) => Record<string, string>;
    readonly key?: SigningKey;
    readonly ageSeconds?: number;
  } = {},
): Promise<Sent> {
  const url = `${api.url}${path}`;
  const method = options.method ?? 'POST';
  const contentType = options.contentType ?? 'application/json';
  const signed = {
    'content-type': contentType,
    ...signRequest({ method, targetUri: url, contentType, body }, options.key ?? bankKey, {
      created: Math.floor(Date.now() / 1000) - (options.ageSeconds ?? 0),
      nonce: `edge_${randomUUID()}`,
    }),
  };
  const response = await fetch(url, { method, headers: options.headers?.(signed) ?? signed, body });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** Every line the functions' logger writes to stderr (its warnings) while `act` runs. */
async function logged<T>(act: () => Promise<T>): Promise<{ result: T; lines: Record<string, unknown>[] }> {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => lines.push(String(chunk)) > 0);
  try {
    return {
      result: await act(),
      lines: lines
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, unknown>];
          } catch {
            return [];
          }
        }),
    };
  } finally {
    spy.mockRestore();
  }
}

const without = (headers: Record<string, string>, name: string) =>
  Object.fromEntries(Object.entries(headers).filter(([header]) => header !== name));

describe('every refused signature is the same 401; why is in our log only', () => {
  const transfer = randomUUID();
  const path = `/network/v1/transfers/${transfer}/status`;
  const body = JSON.stringify({ transfer_id: transfer, end_to_end_id: 'E0', status: 'REJECTED' });
  const simulatorSecret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;

  /** Each refusal: how it is sent, and the reason our log gives. */
  const refusals: [string, () => Promise<Sent>, RegExp][] = [
    [
      'no signature at all',
      () => send(path, body, { headers: () => ({ 'content-type': 'application/json' }) }),
      /missing/,
    ],
    [
      'no Signature header',
      () => send(path, body, { headers: (h) => without(h, 'signature') }),
      /signature header is missing/,
    ],
    [
      'no Content-Digest',
      () => send(path, body, { headers: (h) => without(h, 'content-digest') }),
      /content-digest header is missing/,
    ],
    [
      'a key the bank does not publish',
      () => send(path, body, { key: generateSigningKey('unknown-kid') }),
      /unknown keyid/,
    ],
    [
      "another key under the bank's key id",
      () => send(path, body, { key: generateSigningKey(bankKey.kid) }),
      /does not verify/,
    ],
    ['created 301 s ago', () => send(path, body, { ageSeconds: 301 }), /more than 300 s/],
    ['created 301 s ahead', () => send(path, body, { ageSeconds: -301 }), /more than 300 s/],
    [
      'a body changed in transit',
      () => send(path, body, { headers: (h) => ({ ...h, 'content-digest': 'sha-256=:AAAA:' }) }),
      /content-digest/,
    ],
    [
      'a malformed Signature-Input',
      () => send(path, body, { headers: (h) => ({ ...h, 'signature-input': 'sig1=((' }) }),
      /malformed/,
    ],
    [
      'a signature of 3 bytes',
      () => send(path, body, { headers: (h) => ({ ...h, signature: 'sig1=:AAAA:' }) }),
      /does not verify/,
    ],
    [
      "the simulator's scheme with another secret",
      () =>
        send(path, body, {
          headers: () => ({
            'content-type': 'application/json',
            ...signedHeaders('msg_1', Math.floor(Date.now() / 1000), body, [simulatorSecret]),
          }),
        }),
      /./,
    ],
  ];

  it('answers each refusal with one body, byte for byte but its request id, and logs each reason', async () => {
    const { result: answers, lines } = await logged(async () => {
      const all: Sent[] = [];
      for (const [, refuse] of refusals) all.push(await refuse());
      return all;
    });
    const bodies = answers.map(({ text }) => {
      const { request_id: requestId } = JSON.parse(text) as { request_id: string };
      return { requestId, generic: text.replace(requestId, '<request id>') };
    });
    expect(answers.map(({ status }) => status)).toEqual(refusals.map(() => 401));
    expect(new Set(bodies.map(({ generic }) => generic))).toEqual(
      new Set([
        JSON.stringify({
          type: 'urn:breb:problem:network_signature_invalid',
          title: JSON.parse(answers[0]!.text).title,
          status: 401,
          detail: 'The request is not signed by the network connector',
          code: 'NETWORK_SIGNATURE_INVALID',
          request_id: '<request id>',
        }),
      ]),
    );
    // The same headers too (but the date): nothing else tells one refusal from another.
    const headersOf = ({ headers }: Sent) =>
      JSON.stringify(
        [...headers.entries()].filter(([name]) => !['date', 'x-request-id', 'apigw-requestid'].includes(name)),
      );
    expect(new Set(answers.map(headersOf)).size).toBe(1);
    // Each refusal's reason is in our log, on its request's line, and in no answer.
    const refused = lines.filter((line) => line['message'] === 'Network request refused');
    expect(refused).toHaveLength(refusals.length);
    refusals.forEach(([what, , reason], i) => {
      const line = refused.find((candidate) => JSON.stringify(candidate).includes(bodies[i]!.requestId));
      expect([what, line?.['reason']]).toEqual([what, expect.stringMatching(reason)]);
      expect(answers[i]!.text).not.toContain(String(line?.['reason']));
    });
  });
});

describe('path ids on the signed routes: over long or malformed, a clean 4xx', () => {
  const long = 'a'.repeat(2_100);
  const reversal = JSON.stringify({
    reversal_id: randomUUID(),
    amount: { value: '1.00', currency: 'COP' },
    reason: 'x',
  });
  const decision = JSON.stringify({ platform: 'sandbox-client-a', business_name: 'Tienda', status: 'REVOKED' });
  const cases: [string, string, string, string, number, string][] = [
    ['a transfer id over long', 'POST', `/network/v1/transfers/${long}/status`, '{}', 404, 'NOT_FOUND'],
    ['a transfer id that is no UUID', 'POST', '/network/v1/transfers/not-a-uuid/status', '{}', 404, 'NOT_FOUND'],
    ['an end_to_end_id over long', 'POST', `/network/v1/credits/${long}/reversals`, reversal, 404, 'NOT_FOUND'],
    [
      'an end_to_end_id with other characters',
      'POST',
      '/network/v1/credits/E2E-1%20x/reversals',
      reversal,
      404,
      'NOT_FOUND',
    ],
    ['a NIT over long', 'PUT', `/network/v1/merchants/NIT/${'9'.repeat(2_100)}`, decision, 404, 'NOT_FOUND'],
    ['an identification type over long', 'PUT', `/network/v1/merchants/${long}/900123456`, decision, 404, 'NOT_FOUND'],
    ['a settlement date over long', 'PUT', `/network/v1/settlement-files/${long}`, '', 400, 'VALIDATION_FAILED'],
    [
      'a settlement date that is no day',
      'PUT',
      '/network/v1/settlement-files/2026-13-45',
      '',
      400,
      'VALIDATION_FAILED',
    ],
  ];

  it.each(cases)('%s', async (_what, method, path, body, status, code) => {
    const contentType = path.includes('settlement-files') ? 'application/x-ndjson' : 'application/json';
    const answer = await send(path, body, { method, contentType });
    expect([answer.status, (JSON.parse(answer.text) as { code: string }).code]).toEqual([status, code]);
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
  });
});
