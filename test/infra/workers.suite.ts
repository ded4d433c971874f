/**
 * The later work on every stage, in the synthesized templates: the queues of shared/data/queues.ts
 * with their dead-letter queues, one function per worker of functions/workers.ts with the event
 * source that feeds it, and each worker's rights (the least-privilege walk of privileges.ts).
 */
import { Duration } from 'aws-cdk-lib';
import {
  consumerOf,
  MAX_RECEIVES,
  STREAM_MAX_RECORD_AGE_SECONDS,
  STREAM_RETRY_ATTEMPTS,
  VISIBILITY_TIMEOUT_FACTOR,
  workers,
  type WorkerDefinition,
} from '../../functions/workers';
import { networkRoutes, routesFor } from '../../functions/routes';
import { functionEnvironment } from '../../infra/constructs/service-function';
import { DEAD_LETTER_RETENTION } from '../../infra/constructs/work-queues';
import { stages, type StageName } from '../../infra/stages';
import { EVENT_ENTITY } from '../../shared/data/item-keys';
import { SECRET_ENV, QUEUE_ENV, type QueueName } from '../../shared/runtime/config';
import {
  DEAD_LETTER_SEND_ACTIONS,
  grantedQueueActions,
  grantedTableActions,
  managedPolicies,
  permissionProblems,
  QUEUE_CONSUME_ACTIONS,
  queueArnOf,
  secretKeyArnOf,
  STREAM_RECORD_READ_ACTIONS,
  streamArnOf,
  tenantRateLimitGrants,
} from './privileges';
import {
  asArray,
  functionLogicalId,
  logicalIdOf,
  resourcesOf,
  roleStatements,
  synth,
  type Json,
  type Synth,
} from './synth';

const queueNames = Object.keys(QUEUE_ENV) as QueueName[];
const streamWorker = workers.find((worker) => 'stream' in worker.source)!;
const queueWorkers = workers.filter((worker) => 'queue' in worker.source);

const eventSourceMappings = ({ template }: Synth): Json[] =>
  Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).map((r: Json) => r.Properties);

describe.each(Object.keys(stages) as StageName[])('workers, stage %s', (stage) => {
  const settings = stages[stage];
  let synthed: Synth;
  let resources: Record<string, Json>;
  beforeAll(() => {
    synthed = synth(stage);
    resources = resourcesOf(synthed);
  });
  const queueId = (name: QueueName) => logicalIdOf(synthed, synthed.stack.queues.byName[name]);
  const deadLettersId = (name: QueueName) => logicalIdOf(synthed, synthed.stack.queues.deadLetters[name]);

  describe('queues', () => {
    test('each queue sets a message aside in its dead-letter queue after its fifth receive', () => {
      // A queue and a dead-letter queue per queue name (the stream's failures are one of them).
      synthed.template.resourceCountIs('AWS::SQS::Queue', 2 * queueNames.length);
      for (const name of queueNames) {
        expect(resources[queueId(name)].Properties).toEqual({
          RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [deadLettersId(name), 'Arn'] }, maxReceiveCount: 5 },
          MessageRetentionPeriod: Duration.days(4).toSeconds(),
          VisibilityTimeout: VISIBILITY_TIMEOUT_FACTOR * consumerOf(name).timeoutSeconds,
          SqsManagedSseEnabled: true,
        });
      }
      expect(MAX_RECEIVES).toBe(5);
    });

    test('dead-letter queues keep their messages 14 days, and send them nowhere', () => {
      for (const id of queueNames.map(deadLettersId)) {
        expect(resources[id].Properties).toEqual({
          MessageRetentionPeriod: DEAD_LETTER_RETENTION.toSeconds(),
          SqsManagedSseEnabled: true,
        });
      }
      expect(DEAD_LETTER_RETENTION.toDays()).toBe(14);
    });

    test("a message is not handed again while its consumer's batch may still run (six times its timeout)", () => {
      for (const name of queueNames) {
        const consumer = resources[functionLogicalId(synthed, consumerOf(name).name)];
        expect(resources[queueId(name)].Properties.VisibilityTimeout).toBeGreaterThanOrEqual(
          6 * consumer.Properties.Timeout,
        );
      }
    });

    test('every queue refuses requests without TLS, and is kept as the stage says', () => {
      const policies = Object.values(synthed.template.findResources('AWS::SQS::QueuePolicy')) as Json[];
      for (const [id, queue] of Object.entries(synthed.template.findResources('AWS::SQS::Queue')) as [string, Json][]) {
        expect(queue.DeletionPolicy).toBe(settings.retainData ? 'Retain' : 'Delete');
        const own = policies.filter((p) => JSON.stringify(p.Properties.Queues) === JSON.stringify([{ Ref: id }]));
        expect(own).toHaveLength(1);
        expect(own[0].Properties.PolicyDocument.Statement).toContainEqual(
          expect.objectContaining({
            Effect: 'Deny',
            Action: 'sqs:*',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        );
      }
    });

    test('credit decisions have a queue of their own beside the transfer orders, with its dead-letter queue and alarm', () => {
      const decisions = resources[queueId('creditDecisions')].Properties;
      expect(decisions.RedrivePolicy).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [deadLettersId('creditDecisions'), 'Arn'] },
        maxReceiveCount: MAX_RECEIVES,
      });
      expect(queueId('creditDecisions')).not.toBe(queueId('settlement'));
      // Fed to its own consumer, which holds no connector secret: it never calls the network.
      const consumer = consumerOf('creditDecisions');
      expect(consumer.name).toBe('decideCredit');
      expect(consumer.secrets ?? []).toEqual([]);
      expect(consumerOf('settlement').name).toBe('settlePayment');
      // Its dead letters raise an alarm, as every queue's.
      expect(synthed.stack.deadLetterQueues.get('creditDecisions')).toBe(
        synthed.stack.queues.deadLetters.creditDecisions,
      );
      expect(synthed.stack.monitoring.alarms.map((alarm) => alarm.node.id)).toContain('creditDecisions-DeadLetters');
    });

    test('every queue is a standard queue, so that a message group makes it fair rather than ordered (FIFO)', () => {
      for (const name of queueNames) {
        expect(resources[queueId(name)].Properties.FifoQueue).toBeUndefined();
        expect(resources[deadLettersId(name)].Properties.FifoQueue).toBeUndefined();
      }
    });

    test('the functions that queue credit decisions may send to that queue: those that receive payments', () => {
      const deployed = [...routesFor(settings.sandboxEnabled), ...networkRoutes, ...workers];
      const senders = deployed.filter((definition) => (definition.queues ?? []).includes('creditDecisions'));
      expect(senders.map((definition) => definition.name).sort()).toEqual(
        [
          'createPayment',
          ...(settings.sandboxEnabled ? ['paySandboxQrCode', 'receiveSandboxInboundPayment'] : []),
          'receiveNetworkCredit',
          'settlePayment',
        ].sort(),
      );
      for (const definition of senders) {
        expect(grantedQueueActions(synthed, definition)['creditDecisions']).toEqual(['sqs:SendMessage']);
      }
    });

    test("outputs each queue's URL, each dead-letter queue's URL and ARN (a redrive's), each worker's function", () => {
      synthed.template.hasOutput('SettlementQueueUrl', { Value: { Ref: queueId('settlement') } });
      synthed.template.hasOutput('WebhookDeliveriesQueueUrl', { Value: { Ref: queueId('webhookDeliveries') } });
      synthed.template.hasOutput('StreamFailuresQueueUrl', { Value: { Ref: queueId('streamFailures') } });
      const deadLetterOutputs: [string, string][] = [
        ['Settlement', deadLettersId('settlement')],
        ['WebhookDeliveries', deadLettersId('webhookDeliveries')],
        ['StreamFailures', deadLettersId('streamFailures')],
      ];
      for (const [prefix, id] of deadLetterOutputs) {
        synthed.template.hasOutput(`${prefix}DeadLetterQueueUrl`, { Value: { Ref: id } });
        synthed.template.hasOutput(`${prefix}DeadLetterQueueArn`, { Value: { 'Fn::GetAtt': [id, 'Arn'] } });
      }
      for (const worker of workers) {
        const output = `${worker.name.charAt(0).toUpperCase()}${worker.name.slice(1)}FunctionName`;
        synthed.template.hasOutput(output, { Value: { Ref: functionLogicalId(synthed, worker.name) } });
      }
    });
  });

  describe('workers', () => {
    test.each(workers.map((w) => [w.name, w] as const))('%s: runtime settings and environment', (_, worker) => {
      const properties = resources[functionLogicalId(synthed, worker.name)].Properties;
      expect(properties).toMatchObject({
        Handler: 'index.handler',
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        MemorySize: 512,
        Timeout: worker.timeoutSeconds,
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogGroup: { Ref: expect.any(String) } },
      });
      // Outside any VPC: the sender calls the receivers' URLs on the internet.
      expect(properties.VpcConfig).toBeUndefined();
      expect(properties.Environment.Variables).toEqual({
        ...functionEnvironment(synthed.stack.settings, 'table'),
        TABLE_NAME: { Ref: logicalIdOf(synthed, synthed.stack.table) },
        // Only the queues the worker sends to.
        ...Object.fromEntries((worker.queues ?? []).map((name) => [QUEUE_ENV[name], { Ref: queueId(name) }])),
        // Only the secrets it names (the settlement job signs transfer orders: network.suite.ts).
        ...Object.fromEntries(
          (worker.secrets ?? []).map((name) => [
            SECRET_ENV[name],
            { Ref: logicalIdOf(synthed, synthed.stack.secrets.byName[name]) },
          ]),
        ),
        // Only a worker that opens secrets (the sender signs with them) learns which key seals them.
        ...(worker.sealing?.length ? { SECRET_KEY_ARN: secretKeyArnOf(synthed) } : {}),
        // Only the audit archiver learns the Object Lock bucket (audit.suite.ts).
        ...(worker.auditArchive
          ? { AUDIT_ARCHIVE_BUCKET_NAME: { Ref: logicalIdOf(synthed, synthed.stack.auditArchiveBucket) } }
          : {}),
        // Only a worker that reaches the report or settlement files learns where they are (reports.suite.ts).
        ...(worker.reportFiles?.length || worker.settlementFiles?.length
          ? { REPORT_BUCKET_NAME: { Ref: logicalIdOf(synthed, synthed.stack.reportBucket) } }
          : {}),
      });
    });

    test('the sender has the time for a whole batch of receivers that all time out', () => {
      const sender = workers.find((w) => w.handler === 'send-webhook')!;
      expect(sender.source).toEqual({ queue: 'webhookDeliveries', batchSize: 10 });
      // WEBHOOK_TIMEOUT_MS (5 s) per message of the batch, and room for the table's and the queue's calls.
      expect(sender.timeoutSeconds).toBeGreaterThanOrEqual(10 * 5 + 10);
    });

    test("the stream's consumer gets event inserts only; a failing batch is halved and retried for hours, then re-driven", () => {
      // The audit archiver's mapping apart (audit.suite.ts): the one that reads outbox events.
      const archiverRef = functionLogicalId(synthed, 'archiveAuditEvents');
      const [mapping, ...others] = eventSourceMappings(synthed).filter(
        (m) => m.EventSourceArn['Fn::GetAtt'] && m.FunctionName.Ref !== archiverRef,
      );
      expect(others.filter((m) => m.EventSourceArn['Fn::GetAtt'][1] === 'StreamArn')).toEqual([]);
      expect(mapping).toEqual({
        EventSourceArn: { 'Fn::GetAtt': [logicalIdOf(synthed, synthed.stack.table), 'StreamArn'] },
        FunctionName: { Ref: functionLogicalId(synthed, streamWorker.name) },
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: 100,
        BisectBatchOnFunctionError: true,
        MaximumRetryAttempts: STREAM_RETRY_ATTEMPTS,
        MaximumRecordAgeInSeconds: STREAM_MAX_RECORD_AGE_SECONDS,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        // The given-up batch goes to the queue the re-drive worker consumes.
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId('streamFailures'), 'Arn'] } } },
        FilterCriteria: { Filters: [{ Pattern: expect.any(String) }] },
      });
      // Retried for hours, not skipped: at least 100 attempts and an hour, within the stream's 24 hours.
      expect(mapping.MaximumRetryAttempts).toBeGreaterThanOrEqual(100);
      expect(mapping.MaximumRecordAgeInSeconds).toBeGreaterThanOrEqual(3600);
      expect(mapping.MaximumRecordAgeInSeconds).toBeLessThanOrEqual(12 * 3600);
      expect(consumerOf('streamFailures').handler).toBe('redrive-stream-failures');
      expect(JSON.parse(mapping.FilterCriteria.Filters[0].Pattern)).toEqual({
        eventName: ['INSERT'],
        dynamodb: { NewImage: { entity: { S: [EVENT_ENTITY] } } },
      });
      expect(streamWorker.handler).toBe('dispatch-events');
    });

    test("each queue feeds its one consumer in batches, at most the stage's concurrency, which reports the messages it failed", () => {
      const mappings = eventSourceMappings(synthed);
      // Every worker but the scheduled one has its event source mapping.
      expect(mappings).toHaveLength(workers.filter((w) => !('schedule' in w.source)).length);
      for (const worker of queueWorkers) {
        const source = worker.source as Extract<WorkerDefinition['source'], { queue: QueueName }>;
        const fed = mappings.filter(
          (m) =>
            JSON.stringify(m.EventSourceArn) ===
            JSON.stringify(queueArnOf(synthed, synthed.stack.queues.byName[source.queue])),
        );
        expect(fed).toEqual([
          {
            EventSourceArn: { 'Fn::GetAtt': [queueId(source.queue), 'Arn'] },
            FunctionName: { Ref: functionLogicalId(synthed, worker.name) },
            BatchSize: source.batchSize,
            FunctionResponseTypes: ['ReportBatchItemFailures'],
            ScalingConfig: { MaximumConcurrency: settings.queueConsumerConcurrency[source.queue] },
          },
        ]);
      }
      // Every SQS event source is bounded (SQS's range: 2 to 1000).
      const sqsMappings = mappings.filter(
        (m) => m.ScalingConfig !== undefined || !JSON.stringify(m).includes('StreamArn'),
      );
      expect(sqsMappings).toHaveLength(queueWorkers.length);
      for (const m of sqsMappings) expect(m.ScalingConfig.MaximumConcurrency).toBeGreaterThanOrEqual(2);
      expect(queueWorkers.map((w) => [w.handler, w.source])).toEqual([
        ['send-webhook', { queue: 'webhookDeliveries', batchSize: 10 }],
        ['settle-payment', { queue: 'settlement', batchSize: 10 }],
        ['decide-credit', { queue: 'creditDecisions', batchSize: 10 }],
        ['redrive-stream-failures', { queue: 'streamFailures', batchSize: 1 }],
        ['run-report', { queue: 'reports', batchSize: 1 }],
        ['reconcile-settlement', { queue: 'reconciliations', batchSize: 1 }],
      ]);
    });

    test("the later work leaves the API most of the account's concurrency (Lambda's default: 1000)", () => {
      // The queues' consumers at their maximum, and the dispatcher: one instance per stream shard
      // (DynamoDB keeps a few per table partition; a table of this size has well under 30).
      const queueConsumers = Object.values(settings.queueConsumerConcurrency).reduce((sum, n) => sum + n, 0);
      expect(queueConsumers + 30).toBeLessThanOrEqual(0.1 * 1000);
      // No reserved concurrency on any worker: it would take that much from the API's pool for good,
      // and throttle SQS's pollers (each throttle a receive spent towards the dead-letter queue).
      for (const worker of workers) {
        expect(
          resources[functionLogicalId(synthed, worker.name)].Properties.ReservedConcurrentExecutions,
        ).toBeUndefined();
      }
    });

    test.each(workers.map((w) => [w.name, w] as const))(
      '%s may use only what its worker entry declares',
      (_, worker) => {
        expect(permissionProblems(synthed, worker)).toEqual([]);
        expect(grantedTableActions(synthed, worker)).toEqual(worker.tableActions.map((a) => `dynamodb:${a}`).sort());
        // The rate-limit counters are the routes' alone, and no role has a managed policy.
        expect(tenantRateLimitGrants(synthed, worker)).toEqual([]);
        expect(managedPolicies(synthed, worker)).toEqual([]);
      },
    );

    test("each worker's queue rights: what it consumes, sends to and sets aside, nothing else", () => {
      const sorted = (...actions: string[][]) => [...new Set(actions.flat())].sort();
      const granted = Object.fromEntries(workers.map((w) => [w.name, grantedQueueActions(synthed, w)]));
      expect(granted).toEqual({
        archiveAuditEvents: {},
        dispatchEvents: {
          webhookDeliveries: ['sqs:SendMessage'],
          streamFailures: sorted(DEAD_LETTER_SEND_ACTIONS),
        },
        sendWebhook: { webhookDeliveries: sorted(QUEUE_CONSUME_ACTIONS, ['sqs:SendMessage']) },
        // It also queues the decision job of a payee's credit (a payment between our merchants), on
        // the credit decisions queue.
        settlePayment: { settlement: sorted(QUEUE_CONSUME_ACTIONS), creditDecisions: ['sqs:SendMessage'] },
        decideCredit: { creditDecisions: sorted(QUEUE_CONSUME_ACTIONS) },
        redriveStreamFailures: {
          streamFailures: sorted(QUEUE_CONSUME_ACTIONS),
          webhookDeliveries: ['sqs:SendMessage'],
        },
        runReport: { reports: sorted(QUEUE_CONSUME_ACTIONS) },
        reconcileSettlement: { reconciliations: sorted(QUEUE_CONSUME_ACTIONS) },
        sweepStrandedWork: {
          settlement: ['sqs:SendMessage'],
          webhookDeliveries: ['sqs:SendMessage'],
          reports: ['sqs:SendMessage'],
          reconciliations: ['sqs:SendMessage'],
        },
      });
    });

    test("the re-drive reads the table's stream by shard and sequence number, and nothing else of it", () => {
      const redrive = workers.find((w) => w.name === 'redriveStreamFailures')!;
      const onStream = roleStatements(synthed, redrive.name).filter((statement) =>
        asArray<Json>(statement.Resource).some((r) => JSON.stringify(r) === JSON.stringify(streamArnOf(synthed))),
      );
      expect(onStream.flatMap((statement) => asArray<string>(statement.Action)).sort()).toEqual(
        [...STREAM_RECORD_READ_ACTIONS].sort(),
      );
      expect(permissionProblems(synthed, redrive)).toEqual([]);
      expect(workers.filter((w) => w.readsStream).map((w) => w.name)).toEqual(['redriveStreamFailures']);
    });

    test("the workers' table actions are those their code performs", () => {
      expect(Object.fromEntries(workers.map((w) => [w.name, [...w.tableActions].sort()]))).toEqual({
        // Query (the tenant's webhooks on gsi1) and GetItem (each of them, consistent); Put of the delivery
        // and Update of its lists' counters in one transaction; Update of the event, dispatched.
        dispatchEvents: ['GetItem', 'PutItem', 'Query', 'UpdateItem'],
        // GetItem of each client's chain head (consistent); a transaction puts its links and head; a
        // cancelled one reads the links made meanwhile (BatchGetItem). The copy is the stream's image.
        archiveAuditEvents: ['BatchGetItem', 'GetItem', 'PutItem'],
        // GetItem of the delivery, webhook and event; UpdateItem of the delivery's attempt and of the
        // webhook's run of failures; disabling it: Update of the webhook, Put of its event and audit
        // event, Update of their counters, in one transaction.
        sendWebhook: ['GetItem', 'PutItem', 'UpdateItem'],
        // GetItem of the payment and its details; the answer's transaction: Update of the payment, Put
        // of its event and (a rejection) the movement, Update of the payer's balance. A payment between our merchants: the
        // payee's credit as an inbound payment's (ConditionCheckItem of its customer and key).
        settlePayment: ['ConditionCheckItem', 'GetItem', 'PutItem', 'UpdateItem'],
        // GetItem of the payment, its approval settings and QR code; the decision's transaction: Update
        // of the payment, Put of its events and movement, Update of the payee's balance, a QR code's
        // Update or ConditionCheck.
        decideCredit: ['ConditionCheckItem', 'GetItem', 'PutItem', 'UpdateItem'],
        // The dispatcher's, for the events it dispatches again.
        redriveStreamFailures: ['GetItem', 'PutItem', 'Query', 'UpdateItem'],
        // GetItem of the report, Update taking it for the run; its list's pages (Query, and BatchGetItem
        // of a page's payment details: lists never write); the finish's transaction: Update, Put of its event.
        runReport: ['BatchGetItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'],
        // GetItem of the day's file, Update taking it for the run; BatchGetItem of the transfers and
        // accounts its lines name; Query of the day's settled transfers, its clients' results and a
        // client's old breaks (gsi3); transactions putting breaks (with a ConditionCheck of the file's
        // version and their counters' Updates) and each client's result and event; DeleteItem of old breaks.
        reconcileSettlement: [
          'BatchGetItem',
          'ConditionCheckItem',
          'DeleteItem',
          'GetItem',
          'PutItem',
          'Query',
          'UpdateItem',
        ],
        // Query of the index of due work, Update taking each item; an event's dispatch as the dispatcher's.
        sweepStrandedWork: ['GetItem', 'PutItem', 'Query', 'UpdateItem'],
      });
    });

    test('the sweeper runs every minute, on an EventBridge rule that invokes it and nothing else does', () => {
      const sweeper = workers.find((w) => 'schedule' in w.source)!;
      expect(sweeper.handler).toBe('sweep-stranded-work');
      const rules = Object.values(synthed.template.findResources('AWS::Events::Rule')).map((r: Json) => r.Properties);
      expect(rules).toEqual([
        {
          Description: `Runs ${sweeper.name}`,
          ScheduleExpression: 'rate(1 minute)',
          State: 'ENABLED',
          Targets: [
            {
              Arn: { 'Fn::GetAtt': [functionLogicalId(synthed, sweeper.name), 'Arn'] },
              Id: expect.any(String),
            },
          ],
        },
      ]);
      const invokers = Object.values(synthed.template.findResources('AWS::Lambda::Permission'))
        .map((p: Json) => p.Properties)
        .filter((p: Json) => JSON.stringify(p.FunctionName).includes(functionLogicalId(synthed, sweeper.name)));
      expect(invokers).toEqual([expect.objectContaining({ Principal: 'events.amazonaws.com' })]);
    });
  });
});

describe('the least-privilege check catches, on a worker', () => {
  const settler = workers.find((w) => w.name === 'settlePayment')!;
  const problemsAfter = (modify: (stack: Synth['stack']) => void) =>
    permissionProblems(synth('dev', { modify }), settler);
  const settlerFunction = (stack: Synth['stack']) => stack.workers.get(settler.name)!.function;

  test('consuming a queue that does not feed it, or sending to one it does not name', () => {
    const problems = problemsAfter((stack) => {
      stack.queues.byName.webhookDeliveries.grantConsumeMessages(settlerFunction(stack));
      stack.queues.byName.webhookDeliveries.grantSendMessages(settlerFunction(stack));
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('sqs:ReceiveMessage on'),
        // It names the settlement queue (a payee's credit's decision job): this one it does not.
        expect.stringContaining('sqs:SendMessage on'),
      ]),
    );
  });

  test("reading the table's stream without being its consumer", () => {
    const problems = problemsAfter((stack) => stack.table.grantStreamRead(settlerFunction(stack)));
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('dynamodb:ListStreams: not declared by the worker'),
        expect.stringContaining('dynamodb:GetRecords: not declared by the worker'),
      ]),
    );
  });
});
