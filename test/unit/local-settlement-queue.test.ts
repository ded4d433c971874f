/**
 * The local runtime's settlement queue (infra/local/settlement-queue.ts): it hands the settlement
 * handler the message SQS would, delivers a failed one again up to its receive count, then gives it
 * up with a log line, and stopping it drops the jobs not yet due and waits for the running ones.
 */
import { LOCAL_SETTLEMENT_ATTEMPTS, LocalSettlementQueue } from '../../infra/local/settlement-queue';

type Event = { Records: { body: string }[] };

test('hands the handler the SQS message of the payment', async () => {
  const events: Event[] = [];
  let delivered!: () => void;
  const done = new Promise<void>((resolve) => (delivered = resolve));
  const queue = new LocalSettlementQueue(async (event) => {
    events.push(event);
    delivered();
  });
  await queue.schedule('pay-1', 1);
  await done;
  await queue.stop();
  expect(events).toEqual([{ Records: [{ body: JSON.stringify({ payment_id: 'pay-1' }) }] }]);
});

test('delivers a failing message again, then gives it up with a log line', async () => {
  let calls = 0;
  let gaveUp!: (line: [string, unknown]) => void;
  const log = new Promise<[string, unknown]>((resolve) => (gaveUp = resolve));
  const queue = new LocalSettlementQueue(
    async () => {
      calls += 1;
      throw new Error(`attempt ${calls}`);
    },
    (message, error) => gaveUp([message, error]),
  );
  await queue.schedule('pay-2', 1);
  const [message, error] = await log;
  await queue.stop();
  expect(calls).toBe(LOCAL_SETTLEMENT_ATTEMPTS);
  expect(message).toBe(`Settlement of payment pay-2 failed ${LOCAL_SETTLEMENT_ATTEMPTS} times: given up`);
  expect(error).toEqual(new Error(`attempt ${LOCAL_SETTLEMENT_ATTEMPTS}`));
});

test('stopping drops the jobs not yet due, waits for the running ones, and refuses new ones', async () => {
  const started: string[] = [];
  let finish!: () => void;
  let running!: () => void;
  const isRunning = new Promise<void>((resolve) => (running = resolve));
  const queue = new LocalSettlementQueue(async (event) => {
    started.push(event.Records[0]!.body);
    running();
    await new Promise<void>((resolve) => (finish = resolve));
  });
  await queue.schedule('pay-now', 1);
  await queue.schedule('pay-later', 60 * 60 * 1000);
  await isRunning;
  let stopped = false;
  const stopping = queue.stop().then(() => (stopped = true));
  await Promise.resolve();
  expect(stopped).toBe(false);
  finish();
  await stopping;
  expect(started).toEqual([JSON.stringify({ payment_id: 'pay-now' })]);
  await expect(queue.schedule('pay-after', 1)).rejects.toThrow('stopped');
});
