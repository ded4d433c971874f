/**
 * Fault switches of the local runtime, for the tests alone (docs/testing.md): each makes the later
 * work fail as it can on AWS right after a commit, so a test can show that nothing is lost. Read when
 * they apply, so a test running the runtime in its own process can turn one on and off.
 * - FAULT_QUEUE_SEND=fail: every SendMessage fails (an SQS outage; three failed SDK attempts).
 * - FAULT_CRASH_AFTER=settlement-commit | delivery-commit: the process kills itself (SIGKILL) at the
 *   first send to the settlement or the delivery queue, i.e. right after the commit that precedes it
 *   (a payment's, a redelivery's, the dispatcher's delivery), before the message exists;
 *   FAULT_CRASH_AFTER=payee-credit-commit at the crash point of that name (shared/data/crash-points.ts):
 *   a payment between two of our merchants, once the payee's credit is written, before the payer's
 *   payment is answered.
 * - FAULT_EVENT_STREAM=off: the runtime reads no stream (a dispatcher whose stream mapping is stuck):
 *   events are dispatched by the sweeper only.
 */
import type { CrashPoint } from '../../shared/data/crash-points';
import type { MessageQueue, QueueName } from '../../shared/data/queues';

export const FAULTS = {
  queueSend: 'FAULT_QUEUE_SEND',
  crashAfter: 'FAULT_CRASH_AFTER',
  eventStream: 'FAULT_EVENT_STREAM',
} as const;

/** The crash point of the sends to each queue that has one (no function sends to streamFailures). */
const CRASH_POINTS: Readonly<Partial<Record<QueueName, string>>> = {
  settlement: 'settlement-commit',
  webhookDeliveries: 'delivery-commit',
};

/** `queue` under the switches: its send fails, or kills the process, when one says so. */
export const underFaults = (name: QueueName, queue: MessageQueue): MessageQueue => ({
  async send(message, delayMs, attributes, group) {
    const crashPoint = CRASH_POINTS[name];
    if (crashPoint !== undefined && process.env[FAULTS.crashAfter] === crashPoint) process.kill(process.pid, 'SIGKILL');
    if (process.env[FAULTS.queueSend] === 'fail') {
      throw new Error(`SendMessage to the ${name} queue failed (${FAULTS.queueSend}=fail)`);
    }
    return queue.send(message, delayMs, attributes, group);
  },
});

/** Whether the runtime reads the table's stream. */
export const eventStreamOn = (): boolean => process.env[FAULTS.eventStream] !== 'off';

/** What a crash point does under the switches: kills the process when FAULT_CRASH_AFTER names it. */
export const crashUnderFaults = (point: CrashPoint): void => {
  if (process.env[FAULTS.crashAfter] === point) process.kill(process.pid, 'SIGKILL');
};
