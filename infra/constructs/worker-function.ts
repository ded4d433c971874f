/**
 * The function of one worker of the worker table: a ServiceFunction (service-function.ts: runtime,
 * bundling, logging, the worker's declared rights) and the event source that feeds it, or the
 * EventBridge rule that runs it on its schedule (the sweeper). A queue's consumer takes its messages
 * in batches, at most the stage's maximum concurrency at once, and reports the ones it failed, which
 * the queue hands again (and, after MAX_RECEIVES, sets aside in its dead-letter queue). The stream's
 * consumer gets only the insertions of outbox events, reports the record it stopped at, and has a
 * batch that keeps failing halved until the failing record stands alone; that one is retried until it
 * is STREAM_MAX_RECORD_AGE_SECONDS old, then reported to the streamFailures queue, whose consumer (the
 * re-drive worker) reads it back from the stream and dispatches it: nothing is skipped quietly.
 */
import { Duration } from 'aws-cdk-lib';
import { Table, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition, type IEventSource } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { STREAM_MAX_RECORD_AGE_SECONDS, STREAM_RETRY_ATTEMPTS, type WorkerDefinition } from '../../functions/workers';
import { AUDIT_EVENT_ENTITY } from '../../shared/data/audit-chain';
import { EVENT_ENTITY } from '../../shared/data/item-keys';
import { ServiceFunction, type ServiceFunctionProps } from './service-function';

export interface WorkerFunctionProps extends Omit<ServiceFunctionProps, 'definition' | 'description' | 'timeout'> {
  readonly worker: WorkerDefinition;
}

export class WorkerFunction extends ServiceFunction {
  readonly worker: WorkerDefinition;

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
            : source.stream === 'audit'
              ? "Consumer of the table's stream (audit events, copied to the Object Lock bucket)"
              : "Consumer of the table's stream (outbox events)",
      timeout: Duration.seconds(worker.timeoutSeconds),
    });
    this.worker = worker;
    if ('schedule' in source) {
      new Rule(this, 'Schedule', {
        description: `Runs ${worker.name}`,
        schedule: Schedule.expression(source.schedule),
        targets: [new LambdaFunction(this.function)],
      });
    } else if ('queue' in source) {
      this.function.addEventSource(
        new SqsEventSource(props.queues[source.queue], {
          batchSize: source.batchSize,
          reportBatchItemFailures: true,
          maxConcurrency: props.settings.queueConsumerConcurrency[source.queue],
        }),
      );
    } else {
      // The table by its ARNs: given the table itself, the event source would also grant kms:Decrypt on
      // the table's key, which Lambda's poller needs only through DynamoDB and has there from the key's
      // policy (secret-key-policy.ts).
      const streamTable = Table.fromTableAttributes(this, 'StreamTable', {
        tableArn: props.table.tableArn,
        tableStreamArn: props.table.tableStreamArn!,
      });
      this.function.addEventSource(
        source.stream === 'audit'
          ? auditStreamSource(streamTable, source.batchSize)
          : eventStreamSource(streamTable, source.batchSize, props.queues.streamFailures),
      );
    }
    if (worker.readsStream) this.function.addToRolePolicy(streamReadStatement(props.table));
  }
}

/** Reading records of the table's stream by their shard and sequence number, and nothing else. */
const streamReadStatement = (table: ITable): PolicyStatement =>
  new PolicyStatement({
    actions: ['dynamodb:GetShardIterator', 'dynamodb:GetRecords'],
    resources: [table.tableStreamArn!],
  });

/** The table's stream, filtered to the insertions of outbox events, as the dispatcher reads it. */
function eventStreamSource(table: ITable, batchSize: number, failures: IQueue): IEventSource {
  return new DynamoEventSource(table, {
    // From the oldest record the stream keeps (24 hours): a new consumer misses nothing written meanwhile.
    startingPosition: StartingPosition.TRIM_HORIZON,
    batchSize,
    bisectBatchOnError: true,
    retryAttempts: STREAM_RETRY_ATTEMPTS,
    maxRecordAge: Duration.seconds(STREAM_MAX_RECORD_AGE_SECONDS),
    reportBatchItemFailures: true,
    onFailure: new SqsDlq(failures),
    // Lambda drops every other record before the function runs (and bills nothing for them).
    filters: [
      FilterCriteria.filter({
        eventName: FilterRule.isEqual('INSERT'),
        dynamodb: { NewImage: { entity: { S: FilterRule.isEqual(EVENT_ENTITY) } } },
      }),
    ],
  });
}

/**
 * The table's stream, filtered to the insertions of audit events, as the audit archiver reads it. No
 * on-failure destination (the re-drive dispatches outbox events only): a failing record is retried,
 * the batch halved around it, for as long as the stream keeps it (24 hours), its shard waiting
 * meanwhile (the consumers' iterator age alarm, infra/constructs/monitoring.ts, says so).
 */
export function auditStreamSource(table: ITable, batchSize: number): IEventSource {
  return new DynamoEventSource(table, {
    startingPosition: StartingPosition.TRIM_HORIZON,
    batchSize,
    bisectBatchOnError: true,
    retryAttempts: STREAM_RETRY_ATTEMPTS,
    reportBatchItemFailures: true,
    filters: [
      FilterCriteria.filter({
        eventName: FilterRule.isEqual('INSERT'),
        dynamodb: { NewImage: { entity: { S: FilterRule.isEqual(AUDIT_EVENT_ENTITY) } } },
      }),
    ],
  });
}
