/**
 * The local runtime runs every function in one process, sharing the logger's module: each line must
 * still name the function that wrote it. Requests to several routes are sent at once, so that their
 * handlers interleave at every await, while the workers (the stream's dispatcher) run beside them;
 * every request line's `function_name` (the Lambda context's) must be its own `function`.
 */
import { linkMerchantBody } from '../support/fixtures';
import type { TestApi } from '../support/local-api';

// The functions' logger reads its level when its module loads (the run's default is WARN): the
// request lines are INFO.
process.env['POWERTOOLS_LOG_LEVEL'] = 'INFO';
const { startTestApi } = await import('../support/local-api');

const captured: string[] = [];
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.stop();
});

/** What the functions write to stdout from now on, kept and not shown, until the returned restore. */
function capture(): () => void {
  const write = process.stdout.write;
  process.stdout.write = ((chunk: unknown) => captured.push(String(chunk)) > 0) as typeof process.stdout.write;
  return () => (process.stdout.write = write);
}

const linesOf = (texts: readonly string[]) =>
  texts
    .flatMap((text) => text.split('\n'))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

it('names the right function on every line of requests to several routes handled at once', async () => {
  const token = await api.token('sandbox-client-a');
  const reads = ['/v1/qrcodes', '/v1/payments', '/v1/webhooks', '/v1/keys', '/v1/customers', '/v1/accounts'];
  const restore = capture();
  try {
    await Promise.all([
      ...Array.from({ length: 4 }, () => reads.map((path) => api.request('GET', path, { token }))).flat(),
      // Writes too: a webhook's creation puts its own lines between the reads'.
      ...Array.from({ length: 3 }, () =>
        api.request('POST', '/v1/webhooks', {
          token,
          body: { url: 'https://hooks.example.com/breb', events: ['webhook.test'] },
        }),
      ),
      api.request('POST', '/v1/customers/business/link', { token, body: linkMerchantBody() }),
    ]);
  } finally {
    restore();
  }
  const requests = linesOf(captured).filter((line) => line['message'] === 'request');
  expect(requests.length).toBe(4 * reads.length + 4);
  // More than one function wrote, interleaved: the case where a shared context would leak.
  expect(new Set(requests.map((line) => line['function'])).size).toBeGreaterThanOrEqual(reads.length);
  const wrong = requests
    .filter((line) => line['function_name'] !== line['function'])
    .map((line) => `${String(line['route'])}: ${String(line['function_name'])}`);
  expect(wrong).toEqual([]);
});
