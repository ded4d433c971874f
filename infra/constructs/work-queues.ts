/**
 * The SQS queues of the later work (shared/data/queues.ts): settlement jobs, webhook deliveries, and
 * the stream batches the dispatcher gave up on (its event source's on-failure destination, read by
 * the re-drive worker), each with its dead-letter queue. Receive counts and visibility timeouts come
 * from the worker table (functions/workers.ts), which the local runtime plays too. A message its consumer fails MAX_RECEIVES times moves to the
 * dead-letter queue, where an alarm sees it (monitoring.ts) and an operator redrives it once the
 * cause is fixed (docs/operations.md). Every queue, dead-letter ones included, is encrypted with
 * SQS-managed keys and refuses requests without TLS.
 */
import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption, type QueueProps } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { MAX_RECEIVES, visibilityTimeoutSeconds } from '../../functions/workers';
import { QUEUE_ENV, type QueueName } from '../../shared/runtime/config';
import { removalPolicyOf, type StageSettings } from '../stages';

/**
 * SQS's default, stated: far longer than any message should wait (a settlement seconds, a delivery's
 * longest backoff about half an hour), so a message only expires unread if its consumer was broken for days.
 */
const QUEUE_RETENTION = Duration.days(4);

/** SQS's longest: time to notice a dead letter, fix the cause and redrive it. */
export const DEAD_LETTER_RETENTION = Duration.days(14);

/** A queue as every queue of the stage is: SQS-managed encryption, TLS only, kept as the stage says. */
export function stageQueue(scope: Construct, id: string, settings: StageSettings, props: QueueProps = {}): Queue {
  return new Queue(scope, id, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    removalPolicy: removalPolicyOf(settings),
    ...props,
  });
}

/** A dead-letter queue: a stage queue that keeps its messages for the longest SQS allows. */
export const deadLetterQueue = (scope: Construct, id: string, settings: StageSettings): Queue =>
  stageQueue(scope, id, settings, { retentionPeriod: DEAD_LETTER_RETENTION });

export interface WorkQueuesProps {
  readonly settings: StageSettings;
}

export class WorkQueues extends Construct {
  /** The queues, by the names the route and worker tables use. */
  readonly byName: Readonly<Record<QueueName, Queue>>;
  /** Each queue's dead-letter queue. */
  readonly deadLetters: Readonly<Record<QueueName, Queue>>;

  constructor(scope: Construct, id: string, props: WorkQueuesProps) {
    super(scope, id);
    const { settings } = props;
    const byName: Partial<Record<QueueName, Queue>> = {};
    const deadLetters: Partial<Record<QueueName, Queue>> = {};
    for (const name of Object.keys(QUEUE_ENV) as QueueName[]) {
      const dead = deadLetterQueue(this, `${name}DeadLetters`, settings);
      byName[name] = stageQueue(this, name, settings, {
        retentionPeriod: QUEUE_RETENTION,
        visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds(name)),
        deadLetterQueue: { queue: dead, maxReceiveCount: MAX_RECEIVES },
      });
      deadLetters[name] = dead;
    }
    this.byName = byName as Record<QueueName, Queue>;
    this.deadLetters = deadLetters as Record<QueueName, Queue>;
  }
}
