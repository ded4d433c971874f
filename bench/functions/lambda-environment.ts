/**
 * The environment a function process of the benchmark runs in: the variables the stack gives every
 * function (infra/constructs/service-function.ts), and those Lambda's runtime adds, so that logging,
 * metrics and tracing do in the benchmark what they do in Lambda (tracing sends its documents to a
 * UDP socket standing in for the X-Ray daemon).
 */
import { randomBytes } from 'node:crypto';
import { functionEnvironment } from '../../infra/constructs/service-function';
import { stageSettings } from '../../infra/stages';
import { ENV } from '../../shared/runtime/config';

export interface FunctionProcessSettings {
  readonly tableName: string;
  /** The DynamoDB the functions call (the benchmark's meter in front of DynamoDB Local). */
  readonly dynamodbEndpoint: string;
  /** host:port of the UDP socket that receives the X-Ray documents. */
  readonly xrayDaemon: string;
  /** Variables the local runtime adds (the QR signing secret). */
  readonly extra?: Record<string, string>;
}

/** A sampled trace header, as Lambda sets it for each invocation. */
const traceHeader = (): string =>
  `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomBytes(12).toString('hex')};` +
  `Parent=${randomBytes(8).toString('hex')};Sampled=1`;

export function lambdaEnvironment(functionName: string, settings: FunctionProcessSettings): Record<string, string> {
  return {
    ...functionEnvironment(stageSettings('local'), settings.tableName),
    // No per-tenant limit: the benchmark's one client sends far past a tenant's limit, and its figures
    // are each route's own work. What the limit adds deployed (one conditional UpdateItem per request)
    // is in docs/reliability.md.
    [ENV.tenantRateLimit]: '',
    [ENV.dynamodbEndpoint]: settings.dynamodbEndpoint,
    ...settings.extra,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_SESSION_TOKEN: 'local',
    AWS_LAMBDA_FUNCTION_NAME: functionName,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '512',
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    LAMBDA_TASK_ROOT: '/var/task',
    _HANDLER: 'index.handler',
    _X_AMZN_TRACE_ID: traceHeader(),
    AWS_XRAY_DAEMON_ADDRESS: settings.xrayDaemon,
    AWS_XRAY_CONTEXT_MISSING: 'IGNORE_ERROR',
  };
}
