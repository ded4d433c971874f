/**
 * The least-privilege check: everything an execution role allows, compared with what its entry in
 * the route table, the worker table or the triggers (functions/triggers.ts) declares. A role may
 * hold only
 * - the declared table actions, on the table and its indexes;
 * - writing its own log group (the role has no managed policy);
 * - X-Ray's two write actions, on "*" (X-Ray has no resource-level permissions); on a stage traced by
 *   ADOT, also its two span actions, on "*" too;
 * - GetSecretValue on each secret the entry names in `secrets`;
 * - SendMessage on each queue the entry names in `queues`;
 * - on the stage's secret key only, kms:GenerateDataKey where the entry's `sealing` names `seal`,
 *   kms:Decrypt where it names `open` or reads a secret the key encrypts (through Secrets Manager);
 * - on the audit copies only (the Object Lock bucket's objects under `audit/`), s3:PutObject where
 *   the entry declares `auditArchive`;
 * - on the report files only (the report bucket's objects under `reports/`), s3:PutObject and
 *   s3:AbortMultipartUpload where the entry's `reportFiles` names `write`, s3:GetObject where it
 *   names `read`; on the settlement files only (the same bucket's objects under `settlement-files/`),
 *   the same actions where the entry's `settlementFiles` names each use;
 * - a route's function: the shared chain's UpdateItem of the per-tenant rate-limit counters: on the
 *   table alone (no index), only items whose partition key has the counters' prefix, only the
 *   counters' attributes, returning no item. Exactly this statement; the same action granted any
 *   wider is a problem, and a worker may not have it at all;
 * - a queue's consumer: receiving, deleting and hiding messages of that queue, and reading its
 *   attributes (what Lambda's poller does with the consumer's role);
 * - the stream's consumer: reading the table's stream (DescribeStream, GetShardIterator, GetRecords
 *   on the stream; ListStreams, which takes no resource, on "*"), and sending to the streamFailures
 *   queue (the event source's on-failure destination);
 * - a worker that reads the stream itself (`readsStream`: the re-drive): GetShardIterator and
 *   GetRecords on the table's stream, nothing else of it;
 * - a scheduled worker: nothing more (EventBridge invokes it through the function's resource policy).
 * Powertools Metrics needs no right: it writes EMF lines to the function's log.
 */
import type { FunctionDefinition } from '../../functions/routes';
import type { WorkerDefinition } from '../../functions/workers';
import { RATE_WINDOW_ATTRIBUTES, RATE_WINDOW_KEY_PREFIX } from '../../shared/data/item-keys';
import { SEALING_ACTIONS, XRAY_SPANS_ACTIONS } from '../../infra/constructs/service-function';
import { REPORT_FILES_ACTIONS } from '../../infra/constructs/report-bucket';
import {
  asArray,
  functionLogicalId,
  logicalIdOf,
  resourcesOf,
  roleStatements,
  serviceFunction,
  type Json,
  type Synth,
} from './synth';

export const XRAY_ACTIONS = ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'];
export const LOG_ACTIONS = ['logs:CreateLogStream', 'logs:PutLogEvents'];
/** What Lambda's poller of a queue does with its consumer's role. */
export const QUEUE_CONSUME_ACTIONS = [
  'sqs:ReceiveMessage',
  'sqs:DeleteMessage',
  'sqs:ChangeMessageVisibility',
  'sqs:GetQueueAttributes',
  'sqs:GetQueueUrl',
];
/** What Lambda's poller of the table's stream does with its consumer's role (ListStreams apart). */
export const STREAM_READ_ACTIONS = ['dynamodb:DescribeStream', 'dynamodb:GetShardIterator', 'dynamodb:GetRecords'];
/** What a worker that reads the stream itself (the re-drive) may do: records by shard and sequence number. */
export const STREAM_RECORD_READ_ACTIONS = ['dynamodb:GetShardIterator', 'dynamodb:GetRecords'];
export const streamArnOf = (synthed: Synth): Json => ({
  'Fn::GetAtt': [logicalIdOf(synthed, synthed.stack.table), 'StreamArn'],
});
/** What Lambda does with the stream consumer's role to report a batch it gave up on. */
export const DEAD_LETTER_SEND_ACTIONS = ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'];

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The same resources, in any order: CDK sorts a statement's resources by their tokens, which name the
 * table through a parameter in a route family's nested stack and directly in the stage's.
 */
const sameResources = (a: readonly Json[], b: readonly Json[]): boolean =>
  same(a.map((item) => JSON.stringify(item)).sort(), b.map((item) => JSON.stringify(item)).sort());

/** The stage's secret key, as a function's sealing grant names it. */
export const secretKeyArnOf = (synthed: Synth): Json => ({
  'Fn::GetAtt': [logicalIdOf(synthed, synthed.stack.secrets.secretKey), 'Arn'],
});

/** The report files, as a function's reportFiles grant names them: the report bucket's objects under `reports/`. */
export const reportFilesArnOf = (synthed: Synth): Json => ({
  'Fn::Join': ['', [{ 'Fn::GetAtt': [logicalIdOf(synthed, synthed.stack.reportBucket), 'Arn'] }, '/reports/*']],
});

/** The sponsor bank's settlement files, as a settlementFiles grant names them: the bucket's objects under `settlement-files/`. */
export const settlementFilesArnOf = (synthed: Synth): Json => ({
  'Fn::Join': [
    '',
    [{ 'Fn::GetAtt': [logicalIdOf(synthed, synthed.stack.reportBucket), 'Arn'] }, '/settlement-files/*'],
  ],
});

/** The audit events' copies, as the archiver's grant names them: the Object Lock bucket's objects under `audit/`. */
export const auditArchiveArnOf = (synthed: Synth): Json => ({
  'Fn::Join': ['', [{ 'Fn::GetAtt': [logicalIdOf(synthed, synthed.stack.auditArchiveBucket), 'Arn'] }, '/audit/*']],
});

const tableArnOf = (synthed: Synth): Json => ({ 'Fn::GetAtt': [logicalIdOf(synthed, synthed.stack.table), 'Arn'] });

/** The table and its indexes, as a function's declared table actions name them. */
export const tableResourcesOf = (synthed: Synth): Json[] => {
  const tableArn = tableArnOf(synthed);
  return [tableArn, { 'Fn::Join': ['', [tableArn, '/index/*']] }];
};

export const queueArnOf = (synthed: Synth, construct: { node: { defaultChild?: unknown } }): Json => ({
  'Fn::GetAtt': [logicalIdOf(synthed, construct), 'Arn'],
});

/** The one statement that lets a role update the rate-limit counters, and nothing else of the table. */
const tenantRateLimitGrant = (synthed: Synth): Json => ({
  Action: ['dynamodb:UpdateItem'],
  Condition: {
    'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${RATE_WINDOW_KEY_PREFIX}*`] },
    'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...RATE_WINDOW_ATTRIBUTES] },
    StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
  },
  Effect: 'Allow',
  Resource: [tableArnOf(synthed)],
});

const isTenantRateLimitGrant = (synthed: Synth, statement: Json): boolean =>
  same(
    { ...statement, Action: asArray(statement.Action), Resource: asArray(statement.Resource) },
    tenantRateLimitGrant(synthed),
  );

/** The statements of a function's role that are exactly the rate-limit counters' grant. */
export const tenantRateLimitGrants = (synthed: Synth, definition: FunctionDefinition): Json[] =>
  roleStatements(synthed, definition.name).filter((statement) => isTenantRateLimitGrant(synthed, statement));

/** Actions a role may hold, on these resources only, and why. */
interface Allowance {
  readonly actions: readonly string[];
  readonly resources: readonly Json[];
  readonly why: string;
}

const isWorker = (definition: FunctionDefinition): definition is WorkerDefinition => 'source' in definition;
/** A route's function: one the stack made for a route (the API's description and the sign-in trigger are not). */
const isRoute = (synthed: Synth, definition: FunctionDefinition): boolean =>
  synthed.stack.functions.has(definition.name);

/** Everything the entry of a route, a worker or a trigger lets its role hold. */
function allowancesOf(synthed: Synth, definition: FunctionDefinition): Allowance[] {
  const { stack } = synthed;
  const fn = serviceFunction(synthed, definition.name);
  const allowances: Allowance[] = [
    {
      actions: definition.tableActions.map((action) => `dynamodb:${action}`),
      resources: tableResourcesOf(synthed),
      why: 'only the table and its indexes',
    },
    { actions: XRAY_ACTIONS, resources: ['*'], why: 'X-Ray takes no resource' },
    {
      actions: XRAY_SPANS_ACTIONS,
      resources: synthed.settings.tracing.kind === 'adot' ? ['*'] : [],
      why: 'only on a stage traced by ADOT, where X-Ray takes no resource',
    },
    {
      actions: LOG_ACTIONS,
      resources: [{ 'Fn::GetAtt': [logicalIdOf(synthed, fn.logGroup), 'Arn'] }],
      why: "only the function's own log group",
    },
    {
      actions: ['secretsmanager:GetSecretValue'],
      resources: (definition.secrets ?? []).map((name) => ({ Ref: logicalIdOf(synthed, stack.secrets.byName[name]) })),
      why: 'only the secrets it names',
    },
    {
      actions: ['sqs:SendMessage'],
      resources: (definition.queues ?? []).map((name) => queueArnOf(synthed, stack.queues.byName[name])),
      why: 'only the queues it names',
    },
    {
      // A secret under the stage's key (the network connector's) is read through Secrets Manager,
      // which decrypts as its caller: the statement is held to kms:ViaService (stage-secrets.ts).
      actions: ['kms:Decrypt'],
      resources: (definition.secrets ?? []).some((name) => stack.secrets.byName[name].encryptionKey)
        ? [secretKeyArnOf(synthed)]
        : [],
      why: 'only the secret key, only for a secret it names that the key encrypts',
    },
    ...(['seal', 'open'] as const).map((use) => ({
      actions: [SEALING_ACTIONS[use]],
      resources: definition.sealing?.includes(use) ? [secretKeyArnOf(synthed)] : [],
      why: `only the secret key, only where the entry's sealing names ${use}`,
    })),
    ...(['write', 'read'] as const).map((use) => ({
      actions: REPORT_FILES_ACTIONS[use],
      resources: definition.reportFiles?.includes(use) ? [reportFilesArnOf(synthed)] : [],
      why: `only the report files, only where the entry's reportFiles names ${use}`,
    })),
    ...(['write', 'read'] as const).map((use) => ({
      actions: REPORT_FILES_ACTIONS[use],
      resources: definition.settlementFiles?.includes(use) ? [settlementFilesArnOf(synthed)] : [],
      why: `only the settlement files, only where the entry's settlementFiles names ${use}`,
    })),
    {
      actions: ['s3:PutObject'],
      resources: definition.auditArchive ? [auditArchiveArnOf(synthed)] : [],
      why: 'only the audit copies (the Object Lock bucket under audit/), only where the entry declares auditArchive',
    },
  ];
  if (!isWorker(definition)) return allowances;
  const { source } = definition;
  if ('queue' in source) {
    allowances.push({
      actions: QUEUE_CONSUME_ACTIONS,
      resources: [queueArnOf(synthed, stack.queues.byName[source.queue])],
      why: 'only the queue that feeds it',
    });
  } else if ('stream' in source) {
    allowances.push(
      {
        actions: STREAM_READ_ACTIONS,
        resources: [streamArnOf(synthed)],
        why: "only the table's stream",
      },
      { actions: ['dynamodb:ListStreams'], resources: ['*'], why: 'ListStreams takes no resource' },
      {
        actions: DEAD_LETTER_SEND_ACTIONS,
        resources: [queueArnOf(synthed, stack.queues.byName.streamFailures)],
        why: 'only the streamFailures queue (its on-failure destination)',
      },
    );
  }
  if (definition.readsStream) {
    allowances.push({
      actions: STREAM_RECORD_READ_ACTIONS,
      resources: [streamArnOf(synthed)],
      why: "only the table's stream, by shard and sequence number",
    });
  }
  return allowances;
}

/** What a function's role allows beyond what its entry declares, one line per problem. */
export function permissionProblems(synthed: Synth, definition: FunctionDefinition): string[] {
  const allowances = allowancesOf(synthed, definition);
  const kind = isWorker(definition) ? 'worker' : isRoute(synthed, definition) ? 'route' : 'function';
  const problems: string[] = [];
  for (const statement of roleStatements(synthed, definition.name)) {
    if (statement.Effect !== 'Allow') continue;
    if (kind === 'route' && isTenantRateLimitGrant(synthed, statement)) continue;
    if (statement.NotAction || statement.NotResource)
      problems.push(`NotAction/NotResource in ${JSON.stringify(statement)}`);
    const resources = asArray<Json>(statement.Resource);
    for (const action of asArray<string>(statement.Action)) {
      const allowed = allowances.filter((allowance) => allowance.actions.includes(action));
      if (action.includes('*')) problems.push(`${action}: wildcard action`);
      else if (allowed.every((allowance) => allowance.resources.length === 0)) {
        problems.push(`${action}: not declared by the ${kind}`);
      } else if (!resources.every((resource) => allowed.some((a) => a.resources.some((r) => same(r, resource))))) {
        problems.push(`${action} on ${JSON.stringify(resources)} (${allowed.map((a) => a.why).join('; ')})`);
      }
    }
  }
  return problems;
}

/** The table actions a function's role holds on the table and its indexes (its declared work). */
export const grantedTableActions = (synthed: Synth, definition: FunctionDefinition): string[] =>
  roleStatements(synthed, definition.name)
    .filter((statement) => sameResources(asArray(statement.Resource), tableResourcesOf(synthed)))
    .flatMap((s) => asArray<string>(s.Action))
    .filter((a) => a.startsWith('dynamodb:'))
    .sort();

/** The queue actions a function's role holds, by the name of the queue they apply to (any other resource: '?'). */
export function grantedQueueActions(synthed: Synth, definition: FunctionDefinition): Record<string, string[]> {
  const { stack } = synthed;
  const queues = [
    ...Object.entries(stack.queues.byName),
    ...Object.entries(stack.queues.deadLetters).map(([name, queue]) => [`${name} dead letters`, queue] as const),
  ];
  const granted: Record<string, string[]> = {};
  for (const statement of roleStatements(synthed, definition.name)) {
    const actions = asArray<string>(statement.Action).filter((action) => action.startsWith('sqs:'));
    for (const resource of asArray<Json>(statement.Resource)) {
      if (actions.length === 0) continue;
      const name = queues.find(([, queue]) => same(queueArnOf(synthed, queue), resource))?.[0] ?? '?';
      granted[name] = [...(granted[name] ?? []), ...actions].sort();
    }
  }
  return granted;
}

/** The managed policies of a function's execution role. */
export function managedPolicies(synthed: Synth, definition: FunctionDefinition): Json[] {
  const resources = resourcesOf(synthed);
  const roleId: string = resources[functionLogicalId(synthed, definition.name)].Properties.Role['Fn::GetAtt'][0];
  return asArray(resources[roleId].Properties.ManagedPolicyArns);
}
