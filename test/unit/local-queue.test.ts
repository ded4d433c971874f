/**
 * The local runtime's queue (infra/local/local-queue.ts), as SQS would behave for its consumer: the
 * event and context Lambda hands, a delay in SQS's whole seconds and at most 15 minutes, batches of up
 * to the batch size, a failed message (thrown, timed out, or reported in batchItemFailures) handed
 * again after the visibility timeout up to maxReceives then moved to the dead-letter list with a log
 * line, at most the consumer's maximum concurrency of batches at once, the deployed numbers of each
 * queue, and stop(): messages not yet due dropped, running ones waited for, no send after it.
 */
import { jest } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'aws-lambda';
import { consumerOf, MAX_RECEIVES, VISIBILITY_TIMEOUT_FACTOR } from '../../functions/workers';
import {
  deployedQueueOptions,
  LocalQueue,
  type LocalQueueOptions,
  type QueueEvent,
  type QueueHandler,
} from '../../infra/local/local-queue';
import { QUEUE_ENV, type QueueName } from '../../shared/runtime/config';

const VISIBILITY_MS = 40;

interface Call {
  readonly event: QueueEvent;
  readonly context: Context;
  readonly at: number;
}

/** A queue whose handler is `answer`, recording each call and each log line. */
function queueWith(
  answer: (event: QueueEvent, n: number) => ReturnType<QueueHandler>,
  maxReceives = 3,
  options: LocalQueueOptions = {},
) {
  const calls: Call[] = [];
  const logs: { message: string; error: unknown }[] = [];
  const queue = new LocalQueue(
    'testQueue',
    (event, context) => {
      calls.push({ event, context, at: performance.now() });
      return answer(event, calls.length);
    },
    {
      visibilityTimeoutMs: VISIBILITY_MS,
      maxReceives,
      log: (message, error) => logs.push({ message, error }),
      ...options,
    },
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

test('hands the handler an SQS event and a Lambda context with its timeout, after the delay in whole seconds', async () => {
  const { queue, calls } = queueWith(async () => undefined, 3, { timeoutMs: 4_000 });
  const sent = performance.now();
  // SQS delays in whole seconds: 60 ms is a second.
  await queue.send({ delivery_id: 'd-1' }, 60);
  await until(() => calls.length === 1, 'the message');
  const [call] = calls;
  expect(call!.at - sent).toBeGreaterThanOrEqual(995);
  expect(call!.event).toEqual({
    Records: [{ messageId: expect.any(String), body: '{"delivery_id":"d-1"}', messageAttributes: {}, attributes: {} }],
  });
  expect(call!.event.Records[0]!.messageId).toMatch(/^[0-9a-f-]{36}$/);
  expect(call!.context).toMatchObject({ functionName: 'testQueue', awsRequestId: expect.any(String) });
  expect(call!.context.getRemainingTimeInMillis()).toBeGreaterThan(3_900);
  expect(call!.context.getRemainingTimeInMillis()).toBeLessThanOrEqual(4_000);
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

describe("SQS's delays", () => {
  afterEach(() => jest.useRealTimers());

  test.each([
    [0, 0],
    [1, 1_000],
    [1_000, 1_000],
    [1_500, 2_000],
    // SQS refuses a DelaySeconds over 900: the wait is cut to 15 minutes (the sender queues the rest).
    [20 * 60_000, 900_000],
  ])('a send delayed %i ms is handed after %i ms, not before', async (delayMs, handedAfterMs) => {
    jest.useFakeTimers();
    const { queue, calls } = queueWith(async () => undefined);
    await queue.send({ delivery_id: 'd-delay' }, delayMs);
    if (handedAfterMs > 0) {
      await jest.advanceTimersByTimeAsync(handedAfterMs - 1);
      expect(calls).toHaveLength(0);
    }
    // Due now: gathered into a batch on the loop's next turn (a fake setImmediate runs a tick later).
    await jest.advanceTimersByTimeAsync(2);
    expect(calls).toHaveLength(1);
    await queue.stop();
  });
});

test('the messages due together come in batches of up to the batch size, each message with its own id', async () => {
  const { queue, calls } = queueWith(async () => undefined, 3, { batchSize: 10 });
  // Held while paused, so that all 25 are visible at once (timers of one moment may fire apart).
  await queue.pause();
  await Promise.all(Array.from({ length: 25 }, (_, n) => queue.send({ n }, 0)));
  await sleep(20);
  expect(calls).toHaveLength(0);
  queue.resume();
  await until(() => calls.reduce((sum, c) => sum + c.event.Records.length, 0) === 25, 'every message');
  expect(calls.map((c) => c.event.Records.length)).toEqual([10, 10, 5]);
  const bodies = calls.flatMap((c) => c.event.Records.map((r) => JSON.parse(r.body).n as number));
  expect(bodies.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, n) => n));
  expect(new Set(calls.flatMap((c) => c.event.Records.map((r) => r.messageId))).size).toBe(25);
  await queue.stop();
});

test("at most the consumer's maximum concurrency of batches run at once; the others wait their turn", async () => {
  let running = 0;
  let most = 0;
  const { queue, calls } = queueWith(
    async () => {
      running += 1;
      most = Math.max(most, running);
      await sleep(30);
      running -= 1;
    },
    3,
    { batchSize: 1, maxConcurrency: 2 },
  );
  await queue.pause();
  await Promise.all(Array.from({ length: 6 }, (_, n) => queue.send({ n }, 0)));
  queue.resume();
  await until(() => calls.length === 6 && running === 0, 'every batch');
  expect(most).toBe(2);
  // Without the cap, all six at once.
  const free = queueWith(
    async () => {
      running += 1;
      most = Math.max(most, running);
      await sleep(30);
      running -= 1;
    },
    3,
    { batchSize: 1 },
  );
  most = 0;
  await free.queue.pause();
  await Promise.all(Array.from({ length: 6 }, (_, n) => free.queue.send({ n }, 0)));
  free.queue.resume();
  await until(() => free.calls.length === 6 && running === 0, 'every batch');
  expect(most).toBe(6);
  await Promise.all([queue.stop(), free.queue.stop()]);
});

describe('message groups, as an SQS fair queue', () => {
  test("a message's group reaches the handler as Lambda hands it (attributes.MessageGroupId)", async () => {
    const { queue, calls } = queueWith(async () => undefined);
    await queue.send({ delivery_id: 'd-1' }, 0, {}, 'tenant-a');
    await until(() => calls.length === 1, 'the message');
    expect(calls[0]!.event.Records[0]!.attributes).toEqual({ MessageGroupId: 'tenant-a' });
    await queue.stop();
  });

  test("one group's backlog does not hold back another group's message: it goes in the first batch", async () => {
    const { queue, calls } = queueWith(async () => undefined, 3, { batchSize: 10, maxConcurrency: 1 });
    await queue.pause();
    // A flood of one client's work, then one message of another client's.
    for (let n = 0; n < 50; n += 1) await queue.send({ n, tenant: 'flood' }, 0, {}, 'flood');
    await queue.send({ tenant: 'quiet' }, 0, {}, 'quiet');
    // All fallen due (held while paused), so that they wait together when the queue resumes.
    await sleep(50);
    queue.resume();
    await until(() => calls.length === 6, 'every batch', 20_000);
    const groupsOf = (n: number) => calls[n]!.event.Records.map((record) => record.attributes.MessageGroupId);
    // In arrival order it would have been the sixth batch's last message.
    expect(groupsOf(0)).toContain('quiet');
    expect(calls.slice(1).flatMap((_, n) => groupsOf(n + 1))).not.toContain('quiet');
    // And the flood's own messages keep their order within their group.
    const flood = calls.flatMap((call) =>
      call.event.Records.map((record) => JSON.parse(record.body) as { n?: number }),
    );
    const floodOrder = flood.filter((message) => message.n !== undefined).map((message) => message.n);
    expect(floodOrder).toEqual(Array.from({ length: 50 }, (_, n) => n));
    await queue.stop();
  });

  test('groups take turns batch after batch: each group of a backlog is reached before any gets a second turn', async () => {
    const { queue, calls } = queueWith(async () => undefined, 3, { batchSize: 2, maxConcurrency: 1 });
    await queue.pause();
    for (const group of ['a', 'a', 'a', 'b', 'c']) await queue.send({ group }, 0, {}, group);
    await sleep(50);
    queue.resume();
    await until(() => calls.length === 3, 'every batch');
    const groups = calls.map((call) => call.event.Records.map((record) => record.attributes.MessageGroupId));
    expect(groups).toEqual([['a', 'b'], ['c', 'a'], ['a']]);
    await queue.stop();
  });
});

test('a batch item failure hands again only the messages it names; one naming no message fails the batch', async () => {
  const seen: string[][] = [];
  const { queue, calls } = queueWith(async (event, n) => {
    seen.push(event.Records.map((r) => r.body));
    if (n === 1) {
      const poison = event.Records.find((r) => r.body.includes('poison'))!;
      return { batchItemFailures: [{ itemIdentifier: poison.messageId }] };
    }
    if (n === 2) return { batchItemFailures: [{ itemIdentifier: 'not-in-this-batch' }] };
    return undefined;
  });
  await queue.pause();
  await Promise.all([queue.send({ good: 1 }, 0), queue.send({ poison: true }, 0), queue.send({ good: 2 }, 0)]);
  await sleep(20);
  queue.resume();
  await until(() => calls.length === 3, 'the poison message twice more');
  await sleep(VISIBILITY_MS * 3);
  expect(seen).toEqual([['{"good":1}', '{"poison":true}', '{"good":2}'], ['{"poison":true}'], ['{"poison":true}']]);
  await queue.stop();
});

test("a handler past its timeout fails its batch whole, as Lambda's timeout does", async () => {
  const { queue, calls, logs } = queueWith(
    (_event, n) => (n === 1 ? new Promise<never>(() => undefined) : Promise.resolve()),
    3,
    { timeoutMs: 50 },
  );
  await queue.pause();
  await Promise.all([queue.send({ a: 1 }, 0), queue.send({ b: 2 }, 0)]);
  await sleep(20);
  queue.resume();
  await until(() => calls.length === 2, 'the batch handed again');
  expect(calls[0]!.event.Records.map((r) => r.body).sort()).toEqual(['{"a":1}', '{"b":2}']);
  expect(calls[1]!.event.Records.map((r) => r.body).sort()).toEqual(['{"a":1}', '{"b":2}']);
  expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(50 + VISIBILITY_MS - 5);
  expect(logs).toEqual([]);
  await queue.stop();
});

test.each(Object.keys(QUEUE_ENV) as QueueName[])(
  'the %s queue runs with the deployed numbers: five receives, batch size, timeout, six timeouts of visibility',
  (name) => {
    const consumer = consumerOf(name);
    expect(deployedQueueOptions(name)).toEqual({
      maxReceives: MAX_RECEIVES,
      batchSize: consumer.source.batchSize,
      timeoutMs: consumer.timeoutSeconds * 1000,
      visibilityTimeoutMs: VISIBILITY_TIMEOUT_FACTOR * consumer.timeoutSeconds * 1000,
    });
    expect(MAX_RECEIVES).toBe(5);
    // Minutes, as SQS is deployed: never the second of the tests' servers.
    expect(deployedQueueOptions(name).visibilityTimeoutMs).toBeGreaterThanOrEqual(60_000);
  },
);

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
  test('gets the message again after the visibility timeout, up to maxReceives, then dead-lettered', async () => {
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
    expect(logs[0]!.message).toBe(
      `The testQueue queue's message {"delivery_id":"d-2"} failed 4 times: moved to its dead-letter queue (1 there)`,
    );
    expect(logs[0]!.error).toBeInstanceOf(Error);
    expect(queue.deadLetters.map((record) => record.body)).toEqual(['{"delivery_id":"d-2"}']);
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
    await queue.send({ later: true }, 1_000);
    await until(() => calls.length === 1, 'the failing message');
    // Its failure answered: it now waits out the visibility timeout.
    await sleep(10);
    await queue.stop();
    await sleep(1_100);
    expect(calls.map((c) => c.event.Records[0]!.body)).toEqual(['{"failing":true}']);
    expect(logs).toEqual([]);
  });

  test('waits for the running handlers, and drops their failures silently', async () => {
    let finished = 0;
    const { queue, calls, logs } = queueWith(
      async (event) => {
        await sleep(100);
        finished += 1;
        if (event.Records[0]!.body.includes('failing')) throw new Error('boom');
      },
      3,
      { batchSize: 1 },
    );
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
