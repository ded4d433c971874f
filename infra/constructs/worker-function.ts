/**
 * The function of one worker of the worker table: a ServiceFunction (service-function.ts: runtime,
 * bundling, logging, the worker's declared rights) and the event source that feeds it, or the
 * EventBridge rule that runs it on its schedule (the sweeper). A queue's
 * consumer takes its messages in batches and reports the ones it failed, which the queue hands
 * again (and, after MAX_RECEIVES, sets aside in its dead-letter queue). The stream's consumer gets
 * only the insertions of outbox events, reports the record it stopped at, and has a batch that keeps
 * failing halved until the failing record stands alone; that one, after its retries, is reported to
 * the consumer's own dead-letter queue and skipped, so the stream moves on.
 */
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { FilterCriteria, FilterRule, StartingPosition, type IEventSource } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import type { WorkerDefinition } from '../../functions/workers';
import { EVENT_ENTITY } from '../../shared/data/item-keys';
import { ServiceFunction, type ServiceFunctionProps } from './service-function';
import { deadLetterQueue } from './work-queues';

/** Attempts at a failing stream batch (each split in two, down to one record) before it is set aside. */
export const STREAM_RETRY_ATTEMPTS = 10;

export interface WorkerFunctionProps extends Omit<ServiceFunctionProps, 'definition' | 'description' | 'timeout'> {
  readonly worker: WorkerDefinition;
}

export class WorkerFunction extends ServiceFunction {
  readonly worker: WorkerDefinition;
  /** The stream consumer's on-failure destination: the batches it gave up on. */
  readonly deadLetterQueue: Queue | undefined;

  constructor(scope: Construct, id: string, props: WorkerFunctionProps) {
    const { worker, ...common } = props;
    const { source } = worker;
    super(scope, id, {
      ...common,
      definition: worker,
      description:
        'queue' in source
          ? `Consumer of the ${source.queue} queue`
          : 'schedule' in source
            ? `Run on a schedule: ${source.schedule}`
            : "Consumer of the table's stream (outbox events)",
      timeout: Duration.seconds(worker.timeoutSeconds),
    });
    this.worker = worker;
    if ('schedule' in source) {
      this.deadLetterQueue = undefined;
      new Rule(this, 'Schedule', {
        description: `Runs ${worker.name}`,
        schedule: Schedule.expression(source.schedule),
        targets: [new LambdaFunction(this.function)],
      });
    } else if ('queue' in source) {
      this.deadLetterQueue = undefined;
      this.function.addEventSource(
        new SqsEventSource(props.queues[source.queue], {
          batchSize: source.batchSize,
          reportBatchItemFailures: true,
        }),
      );
    } else {
      this.deadLetterQueue = deadLetterQueue(this, 'DeadLetters', props.settings);
      NagSuppressions.addResourceSuppressions(this.deadLetterQueue, [
        {
          id: 'AwsSolutions-SQS3',
          reason:
            'This queue is a dead-letter queue itself: the on-failure destination of the stream event source ' +
            'mapping, where Lambda reports the batches it gave up on. cdk-nag recognizes a dead-letter queue ' +
            "only in a queue's redrive policy or a function's DeadLetterConfig.",
        },
      ]);
      this.function.addEventSource(eventStreamSource(props.table, source.batchSize, this.deadLetterQueue));
    }
  }
}

/** The table's stream, filtered to the insertions of outbox events, as the dispatcher reads it. */
function eventStreamSource(table: ITable, batchSize: number, deadLetters: Queue): IEventSource {
  return new DynamoEventSource(table, {
    // From the oldest record the stream keeps (24 hours): a new consumer misses nothing written meanwhile.
    startingPosition: StartingPosition.TRIM_HORIZON,
    batchSize,
    bisectBatchOnError: true,
    retryAttempts: STREAM_RETRY_ATTEMPTS,
    reportBatchItemFailures: true,
    onFailure: new SqsDlq(deadLetters),
    // Lambda drops every other record before the function runs (and bills nothing for them).
    filters: [
      FilterCriteria.filter({
        eventName: FilterRule.isEqual('INSERT'),
        dynamodb: { NewImage: { entity: { S: FilterRule.isEqual(EVENT_ENTITY) } } },
      }),
    ],
  });
}
