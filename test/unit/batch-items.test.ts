/**
 * Our use of Powertools Batch (shared/runtime/batch-items.ts): what every queue consumer relies on.
 * A failing or malformed message is reported alone; a batch whose every message failed is answered,
 * not thrown; a batch short of time leaves the rest to the queue; the sender's batch runs at once.
 */
import { allMessagesAtOnce, eachMessage, type BatchOptions, type QueueRecord } from '../../shared/runtime/batch-items';

const record = (messageId: string, body: unknown): QueueRecord => ({
  messageId,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

/** A Lambda context whose remaining time is read from `remaining` at each call. */
const contextWith = (remaining: () => number) => ({ getRemainingTimeInMillis: remaining });
const plentyOfTime = contextWith(() => 60_000);

interface Told {
  handled: string[];
  failed: { id: string; message: unknown; error: string }[];
  outOfTime: string[][];
}

function optionsTelling(
  told: Told,
  handle: (message: { id: string }) => Promise<void> = async () => undefined,
): BatchOptions<{ id: string }> {
  return {
    recordMs: 1_000,
    parse: (body) => {
      const parsed = JSON.parse(body) as { id?: unknown };
      if (typeof parsed.id !== 'string') throw new Error('no id');
      return { id: parsed.id };
    },
    handle: async (message) => {
      await handle(message);
      told.handled.push(message.id);
    },
    failed: (r, error, message) => told.failed.push({ id: r.messageId, message, error: (error as Error).message }),
    outOfTime: (left) => told.outOfTime.push(left.map((r) => r.messageId)),
  };
}

const newTold = (): Told => ({ handled: [], failed: [], outOfTime: [] });

describe.each([
  ['eachMessage', eachMessage],
  ['allMessagesAtOnce', allMessagesAtOnce],
] as const)('%s', (_name, run) => {
  test('reports a failing and a malformed message alone; the others are handled', async () => {
    const told = newTold();
    const answer = await run(
      [record('m1', { id: 'a' }), record('m2', 'not json'), record('m3', { id: 'boom' }), record('m4', { id: 'b' })],
      plentyOfTime,
      optionsTelling(told, async ({ id }) => {
        if (id === 'boom') throw new Error('DynamoDB unavailable');
      }),
    );
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }, { itemIdentifier: 'm3' }] });
    expect(told.handled.sort()).toEqual(['a', 'b']);
    expect(told.failed.sort((x, y) => x.id.localeCompare(y.id))).toEqual([
      { id: 'm2', message: undefined, error: expect.stringMatching(/JSON/) },
      { id: 'm3', message: { id: 'boom' }, error: 'DynamoDB unavailable' },
    ]);
    expect(told.outOfTime).toEqual([]);
  });

  test('a batch whose every message failed is answered with all of them, not thrown', async () => {
    const told = newTold();
    const answer = await run([record('m1', 'x'), record('m2', 'y')], plentyOfTime, optionsTelling(told));
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }, { itemIdentifier: 'm2' }] });
  });

  test('an empty batch reports nothing', async () => {
    await expect(run([], plentyOfTime, optionsTelling(newTold()))).resolves.toEqual({ batchItemFailures: [] });
  });

  test('short of one message worst time at the start, starts none and reports all', async () => {
    const told = newTold();
    const records = [record('m1', { id: 'a' }), record('m2', { id: 'b' })];
    const answer = await run(
      records,
      contextWith(() => 999),
      optionsTelling(told),
    );
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }, { itemIdentifier: 'm2' }] });
    expect(told).toEqual({ handled: [], failed: [], outOfTime: [['m1', 'm2']] });
  });
});

test('eachMessage handles one after the other and leaves the rest once time runs short, told once', async () => {
  const told = newTold();
  let remaining = 3_500;
  const answer = await eachMessage(
    ['a', 'b', 'c', 'd', 'e'].map((id, i) => record(`m${i + 1}`, { id })),
    contextWith(() => remaining),
    optionsTelling(told, async () => {
      // Each message takes a second of the function's time.
      remaining -= 1_000;
    }),
  );
  expect(told.handled).toEqual(['a', 'b', 'c']);
  expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm4' }, { itemIdentifier: 'm5' }] });
  expect(told.outOfTime).toEqual([['m4', 'm5']]);
  expect(told.failed).toEqual([]);
});

test('allMessagesAtOnce starts every message before any ends, and reports failures in the batch order', async () => {
  const told = newTold();
  const started: string[] = [];
  let allStarted!: () => void;
  const everyoneIn = new Promise<void>((resolve) => (allStarted = resolve));
  const answer = await allMessagesAtOnce(
    ['a', 'b', 'c'].map((id, i) => record(`m${i + 1}`, { id })),
    plentyOfTime,
    optionsTelling(told, async ({ id }) => {
      started.push(id);
      if (started.length === 3) allStarted();
      await everyoneIn;
      // The last message fails first; the first fails last.
      if (id === 'c') throw new Error('first to fail');
      if (id === 'a') {
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('last to fail');
      }
    }),
  );
  expect(started).toEqual(['a', 'b', 'c']);
  expect(told.failed.map((f) => f.id)).toEqual(['m3', 'm1']);
  expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }, { itemIdentifier: 'm3' }] });
});
