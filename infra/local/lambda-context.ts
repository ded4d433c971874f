/**
 * The Lambda context the local runtime hands each function it calls, and its timeout, as Lambda
 * would. The runtime runs many invocations side by side in one process, as Lambda Managed Instances
 * do: each in an InvokeStore scope of its own (invoke-store.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { asFunction } from './granted-actions';
import { asInvocation } from './invoke-store';

export function lambdaContext(functionName: string, requestId: string = randomUUID(), timeoutMs = 10_000): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** A function that did not answer within its timeout: Lambda ends it and counts the invocation failed. */
export class LambdaTimeout extends Error {
  constructor(functionName: string, timeoutMs: number) {
    super(`${functionName} timed out after ${timeoutMs} ms (its Lambda timeout)`);
    this.name = 'LambdaTimeout';
  }
}

/** An invocation under way, and whether its timeout passed (Lambda would have stopped it there). */
interface Invocation {
  readonly functionName: string;
  readonly timeoutMs: number;
  stopped: boolean;
}

const invocations = new AsyncLocalStorage<Invocation>();

/**
 * Calls `handler` as Lambda does: a context counting down `timeoutMs`, and a LambdaTimeout once it
 * passed without an answer. Lambda would stop the function then. A process cannot stop a promise, so
 * the invocation is marked stopped instead, and stopAtTimeout refuses every DynamoDB call it makes
 * from then on: its late work commits nothing, as on Lambda.
 */
export function invokeWithin<Event, Result>(
  handler: (event: Event, context: Context) => Promise<Result>,
  event: Event,
  functionName: string,
  timeoutMs: number,
  requestId?: string,
): Promise<Result> {
  const invocation: Invocation = { functionName, timeoutMs, stopped: false };
  const id = requestId ?? randomUUID();
  const running = asInvocation(id, () =>
    invocations.run(invocation, () =>
      Promise.resolve().then(() =>
        asFunction(functionName, () => handler(event, lambdaContext(functionName, id, timeoutMs))),
      ),
    ),
  );
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      invocation.stopped = true;
      reject(new LambdaTimeout(functionName, timeoutMs));
    }, timeoutMs);
  });
  return Promise.race([running, timedOut]).finally(() => clearTimeout(timer));
}

/**
 * Refuses the DynamoDB calls of an invocation past its timeout (invokeWithin). A call sent before the
 * timeout goes on, as one already on the wire does when Lambda stops a function.
 */
export function stopAtTimeout(client: DynamoDBDocumentClient): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      const invocation = invocations.getStore();
      if (invocation?.stopped) throw new LambdaTimeout(invocation.functionName, invocation.timeoutMs);
      return next(args);
    },
    { step: 'initialize', name: 'stopAtTimeout' },
  );
}
