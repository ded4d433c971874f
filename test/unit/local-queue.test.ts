/**
 * The local runtime's queue (infra/local/local-queue.ts), as SQS would behave for its consumer: the
 * event and context Lambda hands, a delay, a failed message (thrown, or reported in
 * batchItemFailures) handed again after the visibility timeout up to maxReceives then given up with
 * a log line, and stop(): messages not yet due dropped, running ones waited for, no send after it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'aws-lambda';
import { LocalQueue, type QueueEvent, type QueueHandler } from '../../infra/local/local-queue';

const VISIBILITY_MS = 40;

interface Call {
  readonly event: QueueEvent;
  readonly context: Context;
  readonly at: number;
}

/** A queue whose handler is `answer`, recording each call and each log line. */
function queueWith(answer: (event: QueueEvent, n: number) => ReturnType<QueueHandler>, maxReceives = 3) {
  const calls: Call[] = [];
  const logs: { message: string; error: unknown }[] = [];
  const queue = new LocalQueue(
    'testQueue',
    (event, context) => {
      calls.push({ event, context, at: performance.now() });
      return answer(event, calls.length);
    },
    { visibilityTimeoutMs: VISIBILITY_MS, maxReceives, log: (message, error) => logs.push({ message, error }) },
  );
  return { queue, calls, logs };
}

async function until(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(5);
  }
}

test('hands the handler an SQS event of one record and a Lambda context, after the delay', async () => {
  const { queue, calls } = queueWith(async () => undefined);
  const sent = performance.now();
  await queue.send({ delivery_id: 'd-1' }, 60);
  await until(() => calls.length === 1, 'the message');
  const [call] = calls;
  expect(call!.at - sent).toBeGreaterThanOrEqual(55);
  expect(call!.event).toEqual({
    Records: [{ messageId: expect.any(String), body: '{"delivery_id":"d-1"}', messageAttributes: {} }],
  });
  expect(call!.event.Records[0]!.messageId).toMatch(/^[0-9a-f-]{36}$/);
  expect(call!.context).toMatchObject({ functionName: 'testQueue', awsRequestId: expect.any(String) });
  expect(call!.context.getRemainingTimeInMillis()).toBeGreaterThan(0);
  // Handled: never handed again.
  await sleep(VISIBILITY_MS * 3);
  expect(calls).toHaveLength(1);
  await queue.stop();
});

test("a message's attributes reach the handler as Lambda hands SQS message attributes", async () => {
  const { queue, calls } = queueWith(async () => undefined);
  const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
  await queue.send({ delivery_id: 'd-1' }, 0, { traceparent });
  await until(() => calls.length === 1, 'the message');
  expect(calls[0]!.event.Records[0]!.messageAttributes).toEqual({
    traceparent: { dataType: 'String', stringValue: traceparent, stringListValues: [], binaryListValues: [] },
  });
  await queue.stop();
});

test('each message is its own event with its own id', async () => {
  const { queue, calls } = queueWith(async () => undefined);
  await Promise.all([queue.send({ n: 1 }, 0), queue.send({ n: 2 }, 0)]);
  await until(() => calls.length === 2, 'both messages');
  expect(calls.map((c) => c.event.Records.length)).toEqual([1, 1]);
  expect(calls.map((c) => c.event.Records[0]!.body).sort()).toEqual(['{"n":1}', '{"n":2}']);
  expect(new Set(calls.map((c) => c.event.Records[0]!.messageId)).size).toBe(2);
  await queue.stop();
});

describe.each([
  [
    'throws',
    async () => {
      throw new Error('DynamoDB unavailable');
    },
  ],
  [
    'reports it in batchItemFailures',
    async (event: QueueEvent) => ({ batchItemFailures: [{ itemIdentifier: event.Records[0]!.messageId }] }),
  ],
])('a handler that %s', (_how, failing: (event: QueueEvent) => ReturnType<QueueHandler>) => {
  test('gets the message again after the visibility timeout, up to maxReceives, then a log line', async () => {
    const { queue, calls, logs } = queueWith(failing, 4);
    await queue.send({ delivery_id: 'd-2' }, 0);
    await until(() => logs.length === 1, 'the message given up');
    expect(calls).toHaveLength(4);
    // The same message each time, each after the visibility timeout.
    expect(new Set(calls.map((c) => c.event.Records[0]!.messageId)).size).toBe(1);
    expect(calls.every((c) => c.event.Records[0]!.body === '{"delivery_id":"d-2"}')).toBe(true);
    for (let i = 1; i < calls.length; i += 1) {
      expect(calls[i]!.at - calls[i - 1]!.at).toBeGreaterThanOrEqual(VISIBILITY_MS - 5);
    }
    expect(logs[0]!.message).toBe(`The testQueue queue's message {"delivery_id":"d-2"} failed 4 times: given up`);
    expect(logs[0]!.error).toBeInstanceOf(Error);
    // Given up: never handed again.
    await sleep(VISIBILITY_MS * 3);
    expect(calls).toHaveLength(4);
    await queue.stop();
  });

  test('a message that fails then succeeds is handed no more, and nothing is logged', async () => {
    const { queue, calls, logs } = queueWith((event, n) => (n === 1 ? failing(event) : Promise.resolve()));
    await queue.send({ delivery_id: 'd-3' }, 0);
    await until(() => calls.length === 2, 'the second receive');
    await sleep(VISIBILITY_MS * 3);
    expect(calls).toHaveLength(2);
    expect(logs).toEqual([]);
    await queue.stop();
  });
});

test('an empty batchItemFailures is a success', async () => {
  const { queue, calls, logs } = queueWith(async () => ({ batchItemFailures: [] }));
  await queue.send({ delivery_id: 'd-4' }, 0);
  await until(() => calls.length === 1, 'the message');
  await sleep(VISIBILITY_MS * 3);
  expect(calls).toHaveLength(1);
  expect(logs).toEqual([]);
  await queue.stop();
});

describe('stop()', () => {
  test('drops the messages not yet due, and a failed message waiting to be handed again', async () => {
    const { queue, calls, logs } = queueWith(async (event) => {
      if (event.Records[0]!.body.includes('failing')) throw new Error('boom');
    });
    await queue.send({ failing: true }, 0);
    await queue.send({ later: true }, 80);
    await until(() => calls.length === 1, 'the failing message');
    // Its failure answered: it now waits out the visibility timeout.
    await sleep(10);
    await queue.stop();
    await sleep(VISIBILITY_MS + 120);
    expect(calls.map((c) => c.event.Records[0]!.body)).toEqual(['{"failing":true}']);
    expect(logs).toEqual([]);
  });

  test('waits for the running handlers, and drops their failures silently', async () => {
    let finished = 0;
    const { queue, calls, logs } = queueWith(async (event) => {
      await sleep(100);
      finished += 1;
      if (event.Records[0]!.body.includes('failing')) throw new Error('boom');
    });
    await Promise.all([queue.send({ ok: true }, 0), queue.send({ failing: true }, 0)]);
    await until(() => calls.length === 2, 'both messages running');
    expect(finished).toBe(0);
    await queue.stop();
    expect(finished).toBe(2);
    await sleep(VISIBILITY_MS * 3);
    expect(calls).toHaveLength(2);
    expect(logs).toEqual([]);
  });

  test('refuses new sends', async () => {
    const { queue, calls } = queueWith(async () => undefined);
    await queue.stop();
    await expect(queue.send({ delivery_id: 'd-5' }, 0)).rejects.toThrow(
      'The testQueue queue is stopped: {"delivery_id":"d-5"} not sent',
    );
    await sleep(20);
    expect(calls).toEqual([]);
  });

  test('a handler running when stop() is called cannot queue more work', async () => {
    let sendAfterStop: unknown;
    const self: { queue?: LocalQueue } = {};
    const { queue, calls } = queueWith(async () => {
      await sleep(50);
      // A sender queueing its next attempt from within its handler, as functions/send-webhook.ts does.
      sendAfterStop = await self.queue!.send({ next: true }, 0).catch((error: unknown) => error);
    });
    self.queue = queue;
    await queue.send({ first: true }, 0);
    await until(() => calls.length === 1, 'the first message');
    await queue.stop();
    expect(sendAfterStop).toBeInstanceOf(Error);
    await sleep(50);
    expect(calls).toHaveLength(1);
  });
});
