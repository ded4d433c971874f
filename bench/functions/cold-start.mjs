/**
 * One cold start, in a fresh Node process that bench/functions.ts starts in a function's environment:
 * imports a handler module (a Lambda bundle or the baseline build), serves the one API Gateway event
 * it is given, and writes its timings to file descriptor 3. Plain JavaScript, so that nothing but
 * Node itself runs before the import.
 *
 * Usage: node cold-start.mjs <handler module> <event JSON file>
 */
import { readFileSync, writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const [moduleFile, eventFile] = process.argv.slice(2);
const event = JSON.parse(readFileSync(eventFile, 'utf8'));
const context = {
  callbackWaitsForEmptyEventLoop: true,
  functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
  functionVersion: '$LATEST',
  invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${process.env.AWS_LAMBDA_FUNCTION_NAME}`,
  memoryLimitInMB: '512',
  awsRequestId: event.requestContext.requestId,
  logGroupName: `/aws/lambda/${process.env.AWS_LAMBDA_FUNCTION_NAME}`,
  logStreamName: 'bench',
  getRemainingTimeInMillis: () => 10_000,
};

// The process has no SQS: a function that sends to a queue (createPayment, redeliverWebhookDelivery)
// finds one here that takes its message in memory, where shared/data/queues.ts looks for the local
// runtime's. SendMessage (one HTTPS call on Lambda) is thus left out of the measured cold start.
globalThis[Symbol.for('breb.localQueues')] = Object.fromEntries(
  ['settlement', 'webhookDeliveries'].map((name) => [name, { send: async () => undefined }]),
);

// Node's own start-up, up to this module: the same for every build, and Lambda's, not ours.
const processStartMs = performance.now();
const { handler } = await import(pathToFileURL(moduleFile).href);
const importedMs = performance.now();
const response = await handler(event, context);
const answeredMs = performance.now();

writeSync(
  3,
  JSON.stringify({
    processStartMs,
    initMs: importedMs - processStartMs,
    firstRequestMs: answeredMs - importedMs,
    status: response.statusCode,
    body: response.statusCode >= 400 ? response.body : undefined,
    rssMb: process.memoryUsage().rss / 2 ** 20,
  }),
);
// Lambda freezes the process after the answer; nothing after it counts.
process.exit(0);
