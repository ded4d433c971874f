/**
 * POST /v1/validate-key through the real local server, with DynamoDB behind a proxy that records
 * every call: MATCH for the owner of a key (ours and the sandbox directory's, type inferred, value
 * normalised, asked by any client), and NO_MATCH alike for every miss: the same status, the same
 * bytes, the same headers and the same one GetItem of the directory (the calls of the runtime's
 * stream reader, which polls through the proxy too, aside), with nothing written.
 */
import { DynamoDbFaultProxy } from '../support/dynamodb-fault-proxy';
import { startTestApi, testEndpoint, type ApiAnswer, type TestApi } from '../support/local-api';
import { merchantWithKey, uniqueAlphaKey, type MerchantWithKey } from '../support/merchants';
import { expectProblem, fieldsOf } from '../support/problems';
import { describeChanges, diffItems } from '../support/table-diff';
import type { Item } from '../support/dynamo-table';
import { LOOKUP_BUDGET } from '../../shared/domain/lookup-budget';

/** The sandbox directory's Ana María Gómez Pérez (docs/keys.md, Sandbox directory). */
const ANA = { identification_type: 'CC', identification_number: '1020304050' };

let proxy: DynamoDbFaultProxy;
let api: TestApi;
let tokenA: string;
let tokenB: string;
let merchant: MerchantWithKey;
/** A key of the merchant, suspended; and one deleted. */
let suspended: { key_type: string; key_value: string };
let deleted: { key_type: string; key_value: string };

beforeAll(async () => {
  proxy = await DynamoDbFaultProxy.start(testEndpoint());
  api = await startTestApi({ dynamodbEndpoint: proxy.endpoint, scanEndpoint: testEndpoint() });
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
  merchant = await merchantWithKey(api, tokenA);
  const register = async (): Promise<{ id: string; key: { key_type: string; key_value: string } }> => {
    const key = { key_type: 'ALPHA', key_value: uniqueAlphaKey() };
    const answer = await api.request('POST', '/v1/keys', {
      token: tokenA,
      body: { account_id: merchant.accountId, key },
    });
    expect(answer.status).toBe(200);
    return answer.body as never;
  };
  const toSuspend = await register();
  expect((await api.request('PATCH', `/v1/keys/${toSuspend.id}/suspend`, { token: tokenA })).status).toBe(200);
  suspended = toSuspend.key;
  const toDelete = await register();
  expect((await api.request('DELETE', `/v1/keys/${toDelete.id}`, { token: tokenA })).status).toBe(200);
  deleted = toDelete.key;
});

afterAll(async () => {
  await api.stop();
  await proxy.stop();
});

/** The local runtime's reader of the table's stream polls through the proxy too; it is not the request's. */
const STREAM_OPERATIONS = new Set(['DescribeStream', 'GetShardIterator', 'GetRecords', 'ListStreams']);

interface Validation {
  readonly answer: ApiAnswer;
  /** The DynamoDB operations the request made, in order. */
  readonly calls: string[];
}

/** One validation, alone against the table (the workers wait), with the DynamoDB calls it made. */
const validate = (body: Record<string, unknown>, token = tokenA, headers: Record<string, string> = {}) =>
  api.quietly(async (): Promise<Validation> => {
    const from = proxy.attempts.length;
    const answer = await api.request('POST', '/v1/validate-key', { token, body, headers });
    const calls = proxy.attempts.slice(from).map((attempt) => attempt.operation);
    return { answer, calls: calls.filter((operation) => !STREAM_OPERATIONS.has(operation)) };
  });

const ours = () => ({ key: merchant.key, identification_type: 'NIT', identification_number: merchant.nit });

/** What a client sees of an answer: status, body bytes, content type and the names of the headers. */
const seen = ({ answer }: Validation) => ({
  status: answer.status,
  text: answer.text,
  contentType: answer.headers.get('content-type'),
  headers: [...answer.headers.keys()].filter((name) => !['date'].includes(name)).sort(),
});

describe('MATCH', () => {
  it("answers MATCH to the owner's identification, for our key and the sandbox's, type inferred, value normalised", async () => {
    const cases: [string, Record<string, unknown>, string?][] = [
      ["our merchant's ALPHA key", ours()],
      ['the same without key_type (inferred ALPHA)', { ...ours(), key: { key_value: merchant.key.key_value } }],
      ['asked by another client: the directory is shared', ours(), tokenB],
      ["Ana María's PHONE with +57 (normalised)", { key: { key_type: 'PHONE', key_value: '+573001234567' }, ...ANA }],
      ["Ana María's EMAIL in capitals, type inferred", { key: { key_value: 'ANA.GOMEZ@EXAMPLE.COM' }, ...ANA }],
      ["Ana María's ID key, typed", { key: { key_type: 'ID', key_value: '1020304050' }, ...ANA }],
    ];
    for (const [label, body, token] of cases) {
      const validation = await validate(body, token);
      expect({ label, status: validation.answer.status, body: validation.answer.body }).toEqual({
        label,
        status: 200,
        body: { result: 'MATCH' },
      });
      // The lookup budget's room, the directory's entry, then the budget's cost (docs/keys.md, Anti-scanning).
      expect({ label, calls: validation.calls }).toEqual({
        label,
        calls: ['UpdateItem', 'GetItem', 'UpdateItem'],
      });
    }
  });
});

describe('NO_MATCH', () => {
  it('every miss has the answer, the headers and the DynamoDB cost of every other, and of a hit', async () => {
    const nit = merchant.nit;
    const misses: [string, Record<string, unknown>][] = [
      ['an unknown key', { ...ours(), key: { key_type: 'ALPHA', key_value: uniqueAlphaKey() } }],
      ['a known key, another identification number', { ...ours(), identification_number: '900000001' }],
      ['a known key, another identification type with its number', { ...ours(), identification_type: 'CC' }],
      ['a known key, the number with a leading zero', { ...ours(), identification_number: `0${nit}` }],
      ["a sandbox key, our merchant's identification", { ...ours(), key: { key_value: '3001234567' } }],
      ['a suspended key, its owner', { ...ours(), key: suspended }],
      ['a deleted key, its former owner', { ...ours(), key: deleted }],
      ['an ALPHA key in another letter case', { ...ours(), key: { key_value: merchant.key.key_value.toUpperCase() } }],
      ['a PHONE key that is not a phone number', { ...ours(), key: { key_type: 'PHONE', key_value: 'abc' } }],
      ['an ALPHA-looking value too short, type inferred', { ...ours(), key: { key_value: '@ab' } }],
      ['a value that fits no key format', { ...ours(), key: { key_value: '!!+--' } }],
      ['an ID key with a separator', { key: { key_type: 'ID', key_value: '1020-304050' }, ...ANA }],
      ['a value of non-ASCII letters', { ...ours(), key: { key_value: 'ñandú@correo.co' } }],
    ];
    const hit = await validate(ours());
    expect(hit.answer.body).toEqual({ result: 'MATCH' });

    const before = await api.scan();
    const answers = [];
    for (const [label, body] of misses) answers.push({ label, validation: await validate(body) });
    // Nothing written but the lookup budget's counter, each miss costing it twenty hits.
    const budget = (items: Item[]): number =>
      items
        .filter((item) => String(item['pk']).startsWith('RATE#sandbox-client-a|lookups#'))
        .reduce((sum, item) => sum + Number(item['requests']), 0);
    const notBudget = (items: Item[]): Item[] => items.filter((item) => item['entity'] !== 'RATE_WINDOW');
    const after = await api.scan();
    expect(describeChanges(diffItems(notBudget(before), notBudget(after)))).toBe('');
    // (A budget window may have ended in between: then only the new window's count is seen.)
    expect([
      misses.length * LOOKUP_BUDGET.costs.miss,
      misses.length * LOOKUP_BUDGET.costs.miss + budget(before),
    ]).toContain(budget(after));

    const [first] = answers;
    expect(first!.validation.answer.body).toEqual({ result: 'NO_MATCH' });
    expect(seen(first!.validation)).toMatchObject({ status: 200, contentType: 'application/json' });
    for (const { label, validation } of answers) {
      expect({ label, ...seen(validation) }).toEqual({ label, ...seen(first!.validation) });
      // One read of the directory and one write of the budget, as a hit: a miss costs what a hit costs.
      expect({ label, calls: validation.calls }).toEqual({ label, calls: hit.calls });
    }
    expect(seen(hit)).toEqual({ ...seen(first!.validation), text: '{"result":"MATCH"}' });
  });

  it('stores no resolution, and an Idempotency-Key replays the answer like any POST', async () => {
    const before = await api.scan();
    const key = { 'idempotency-key': `validate-${process.pid}-${Date.now()}` };
    const first = await validate(ours(), tokenA, key);
    const again = await validate(ours(), tokenA, key);
    expect([first.answer.status, first.answer.body]).toEqual([200, { result: 'MATCH' }]);
    expect([again.answer.status, again.answer.text]).toEqual([200, first.answer.text]);
    expect(again.answer.headers.get('idempotent-replayed')).toBe('true');
    const added = diffItems(before, await api.scan()).added.map((item) => item['entity']);
    expect(added).toEqual(['IDEMPOTENCY']);
  });
});

describe('refusals of the shared chain', () => {
  it('a body of the wrong shape is 400 naming every field; the read-only client may not validate', async () => {
    const refused = await api.request('POST', '/v1/validate-key', {
      token: tokenA,
      body: { key: { key_type: 'FAX', key_value: '' }, identification_type: 'RUT', extra: true },
    });
    expectProblem(refused, 400, 'VALIDATION_FAILED');
    expect(fieldsOf(refused)).toEqual(
      expect.arrayContaining(['identification_number', 'identification_type', 'key.key_type', 'key.key_value']),
    );
    // Validating is paying's first step, under resolve-key's scope (docs/keys.md).
    const readonly = await validate(ours(), await api.token('sandbox-client-readonly'));
    expectProblem(readonly.answer, 403, 'INSUFFICIENT_SCOPE');
  });
});
