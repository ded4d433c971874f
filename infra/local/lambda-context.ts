/** The Lambda context the local runtime hands each function it calls, and its timeout, as Lambda would. */
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { asFunction } from './granted-actions';

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

/**
 * Calls `handler` as Lambda does: a context counting down `timeoutMs`, and a LambdaTimeout once it
 * passed without an answer. Lambda would stop the function then; a process cannot stop a promise, so
 * its late work goes on unwatched, as a crashed instance's would have been cut short.
 */
export function invokeWithin<Event, Result>(
  handler: (event: Event, context: Context) => Promise<Result>,
  event: Event,
  functionName: string,
  timeoutMs: number,
  requestId?: string,
): Promise<Result> {
  const running = Promise.resolve().then(() =>
    asFunction(functionName, () => handler(event, lambdaContext(functionName, requestId, timeoutMs))),
  );
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LambdaTimeout(functionName, timeoutMs)), timeoutMs);
  });
  return Promise.race([running, timedOut]).finally(() => clearTimeout(timer));
}
