/**
 * Lambda's InvokeStore as Lambda Managed Instances give it, for the local runtime, which runs many
 * invocations side by side in one process: each invocation's fields (its request id, and what
 * Powertools keeps per invocation: the logger's Lambda context and keys, the metrics it adds) in an
 * AsyncLocalStorage of its own. Installed as the process's store (`awslambda.InvokeStore`, where
 * Lambda's runtime puts it and Powertools and the SDK read it), with AWS_LAMBDA_MAX_CONCURRENCY set,
 * which is what tells Powertools to keep its state there.
 *
 * Written here rather than taken from @aws/lambda-invoke-store, whose `getInstanceAsync` keeps the
 * first instance any caller asked for (the SDK asks on its first request, and gets the
 * one-invocation store while the variable is not yet set), and hands it out asynchronously: this one
 * is in place before anything logs. The field keys are Lambda's global symbols.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

type InvocationFields = Record<string | symbol, unknown>;

const REQUEST_ID = Symbol.for('_AWS_LAMBDA_REQUEST_ID');
/** Lambda's fields, which an invocation reads and never writes. */
const PROTECTED_KEYS = [
  REQUEST_ID,
  ...['X_RAY_TRACE_ID', 'TENANT_ID', 'TRACEPARENT', 'TRACESTATE', 'BAGGAGE'].map((name) =>
    Symbol.for(`_AWS_LAMBDA_${name}`),
  ),
];
const [, X_RAY_TRACE_ID, TENANT_ID, TRACEPARENT, TRACESTATE, BAGGAGE] = PROTECTED_KEYS as [symbol, ...symbol[]];

class LocalInvokeStore {
  private readonly invocations = new AsyncLocalStorage<InvocationFields>();

  getContext = (): InvocationFields | undefined => this.invocations.getStore();
  hasContext = (): boolean => this.invocations.getStore() !== undefined;
  get = (key: string | symbol): unknown => this.invocations.getStore()?.[key];

  set(key: string | symbol, value: unknown): void {
    if (PROTECTED_KEYS.includes(key as symbol)) throw new Error(`Cannot modify Lambda's field ${String(key)}`);
    const fields = this.invocations.getStore();
    if (!fields) throw new Error('No invocation is running');
    fields[key] = value;
  }

  run = <T>(fields: InvocationFields, fn: () => T): T => this.invocations.run(fields, fn);
  getRequestId = (): string => (this.get(REQUEST_ID) as string | undefined) ?? '-';
  getXRayTraceId = (): unknown => this.get(X_RAY_TRACE_ID!);
  getTenantId = (): unknown => this.get(TENANT_ID!);
  getTraceparent = (): unknown => this.get(TRACEPARENT!);
  getTracestate = (): unknown => this.get(TRACESTATE!);
  getBaggage = (): unknown => this.get(BAGGAGE!);
}

const store = new LocalInvokeStore();
const globals = globalThis as { awslambda?: Record<string, unknown> };
globals.awslambda = { ...globals.awslambda, InvokeStore: store };
process.env['AWS_LAMBDA_MAX_CONCURRENCY'] ??= '64';

/** Runs `fn` as the invocation `requestId`, with fields of its own. */
export const asInvocation = <T>(requestId: string, fn: () => T): T => store.run({ [REQUEST_ID]: requestId }, fn);
