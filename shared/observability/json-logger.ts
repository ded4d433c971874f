/**
 * The functions' structured logs: one JSON line per entry, written exactly as Powertools' Logger
 * writes them (it was the functions' logger; this is ≈25 KB less in every bundle with the Powertools
 * code it shared with Metrics, and test/unit/json-logger.test.ts compares the two line for line).
 * What the functions use, and nothing else: the levels, extra attributes and errors of an entry,
 * the Lambda context of the invocation on every line, the X-Ray trace id and the log level from the
 * environment (POWERTOOLS_LOG_LEVEL, or LOG_LEVEL; Lambda's AWS_LAMBDA_LOG_LEVEL prevails). One
 * difference, on purpose: an error keeps only the fields loggable-error.ts allows, where Powertools
 * wrote every field (an AWS SDK error's item images with them).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from 'aws-lambda';
import { coldStartTracker } from './cold-start';
import { isError, loggableError } from './loggable-error';

const THRESHOLDS = { TRACE: 6, DEBUG: 8, INFO: 12, WARN: 16, ERROR: 20, CRITICAL: 24, SILENT: 28 } as const;
export type LogLevel = keyof typeof THRESHOLDS;

type Attributes = Record<string, unknown>;

const isLevel = (value: string | undefined): value is LogLevel => value !== undefined && value in THRESHOLDS;

/** Lambda's own level (advanced logging controls) prevails, then ours, then INFO. */
function initialLevel(): LogLevel {
  const lambda = process.env['AWS_LAMBDA_LOG_LEVEL']?.trim().toUpperCase();
  const lambdaLevel = lambda === 'FATAL' ? 'CRITICAL' : lambda;
  if (isLevel(lambdaLevel)) return lambdaLevel;
  const configured = (process.env['POWERTOOLS_LOG_LEVEL']?.trim() || process.env['LOG_LEVEL']?.trim())?.toUpperCase();
  return isLevel(configured) ? configured : 'INFO';
}

/** The trace's Root id: from Lambda's store of the invocation, or its environment variable. */
function xrayTraceId(): string | undefined {
  const awslambda = (globalThis as { awslambda?: { InvokeStore?: { getXRayTraceId(): string | undefined } } })
    .awslambda;
  const header = awslambda?.InvokeStore?.getXRayTraceId() ?? process.env['_X_AMZN_TRACE_ID'] ?? '';
  return header
    .split(';')
    .map((field) => field.split('='))
    .find(([name]) => name === 'Root')?.[1];
}

/**
 * Errors anywhere in an entry are reduced to their allowed fields (loggable-error.ts: never an AWS
 * error's item images), big integers written as strings, cycles cut.
 */
function jsonReplacer() {
  const ancestors: unknown[] = [];
  return function (this: unknown, _key: string, value: unknown): unknown {
    const replaced = isError(value) ? loggableError(value) : value;
    if (typeof replaced === 'bigint') return replaced.toString();
    if (typeof replaced === 'object' && replaced !== null) {
      while (ancestors.length > 0 && ancestors.at(-1) !== this) ancestors.pop();
      if (ancestors.includes(replaced)) return undefined;
      ancestors.push(replaced);
    }
    return replaced;
  };
}

export interface LoggerOptions {
  readonly serviceName: string;
}

export class JsonLogger {
  private readonly threshold: number;
  private readonly isColdStart = coldStartTracker();
  /**
   * The Lambda context of the invocation a line belongs to. Not a field of the logger: the local
   * runtime runs many handlers in one process, sharing this module, and a field set by one request
   * would name another's function on the lines it writes after an await.
   */
  private readonly invocation = new AsyncLocalStorage<Attributes>();

  constructor(private readonly options: LoggerOptions) {
    this.threshold = THRESHOLDS[initialLevel()];
  }

  debug(message: string, ...extra: (Attributes | Error)[]): void {
    this.write('DEBUG', message, extra);
  }

  info(message: string, ...extra: (Attributes | Error)[]): void {
    this.write('INFO', message, extra);
  }

  warn(message: string, ...extra: (Attributes | Error)[]): void {
    this.write('WARN', message, extra);
  }

  error(message: string, ...extra: (Attributes | Error)[]): void {
    this.write('ERROR', message, extra);
  }

  /** The invocation's Lambda context, on every line the current execution writes from now on. */
  addContext(context: Context): void {
    this.invocation.enterWith(this.attributesOf(context));
  }

  /**
   * Runs each call of `handler` with its Lambda context on every line it writes, whatever else runs
   * in the process meanwhile (Powertools' injectLambdaContext, scoped to the call).
   */
  withLambdaContext<Handler extends (...args: never[]) => Promise<unknown>>(handler: Handler): Handler {
    // A Lambda handler's second argument is its context.
    const scoped = (...args: never[]) =>
      this.invocation.run(this.attributesOf(args[1] as unknown as Context), () => handler(...args));
    return scoped as Handler;
  }

  private attributesOf(context: Context): Attributes {
    return {
      cold_start: this.isColdStart(),
      function_arn: context.invokedFunctionArn,
      function_memory_size: context.memoryLimitInMB,
      function_name: context.functionName,
      function_request_id: context.awsRequestId,
    };
  }

  private write(level: Exclude<LogLevel, 'SILENT'>, message: string, extra: (Attributes | Error)[]): void {
    if (THRESHOLDS[level] < this.threshold) return;
    const attributes: Attributes = {
      level,
      message,
      // UTC, as Lambda's clock (TZ=:UTC); Powertools would add an offset under another TZ.
      timestamp: new Date().toISOString(),
      service: this.options.serviceName,
      ...this.invocation.getStore(),
      sampling_rate: 0,
      xray_trace_id: xrayTraceId(),
    };
    for (const item of extra) {
      if (isError(item)) attributes['error'] = item;
      else Object.assign(attributes, item);
    }
    // Empty attributes are left out, as Powertools leaves them out.
    const line = Object.fromEntries(
      Object.entries(attributes).filter(([, value]) => value !== undefined && value !== '' && value !== null),
    );
    const text = `${JSON.stringify(line, jsonReplacer())}\n`;
    // Straight to the streams, as Powertools' own console does: Lambda's console prefixes its lines.
    if (THRESHOLDS[level] >= THRESHOLDS.WARN) process.stderr.write(text);
    else process.stdout.write(text);
  }
}
