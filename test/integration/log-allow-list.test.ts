/**
 * Logged errors keep an allow-list of fields (shared/observability/loggable-error.ts): real AWS SDK
 * errors from DynamoDB Local, carrying the image of an item that holds a person's name, document and
 * account number (a ConditionalCheckFailedException's `Item`, a TransactionCanceledException's
 * `CancellationReasons[].Item`, as the repositories ask for them with ReturnValuesOnConditionCheckFailure),
 * logged through the real paths (the HTTP chain's unexpected error, an after-commit send's warning, a
 * worker's failure with the error as a cause, the local runtime's scheduled run), leave no trace of
 * the item in any line; the name, message and request id are there.
 */
import { inspect } from 'node:util';
import { jest } from '@jest/globals';
import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { createTestTable, type TestTable } from '../support/dynamo-table';

let table: TestTable;
const PERSON = { name: 'Ana María Gómez Pérez', identification_number: '1020304050', account: '4050123456789012' };
const KEY = { pk: 'PAYMENT#log-allow-list', sk: 'PAYMENT' };

beforeAll(async () => {
  table = await createTestTable('log-allow-list');
  await table.documents.send(new PutCommand({ TableName: table.tableName, Item: { ...KEY, counterparty: PERSON } }));
}, 60_000);

afterAll(async () => {
  await table?.drop();
});

/** The error DynamoDB answers a write refused by its condition, with the item's old image. */
async function refused(kind: 'single' | 'transaction'): Promise<Error> {
  const put = {
    TableName: table.tableName,
    Item: { ...KEY, counterparty: { name: 'other' } },
    ConditionExpression: 'attribute_not_exists(pk)',
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
  try {
    if (kind === 'single') await table.documents.send(new PutCommand(put));
    else await table.documents.send(new TransactWriteCommand({ TransactItems: [{ Put: put }] }));
  } catch (error) {
    return error as Error;
  }
  throw new Error('The write was not refused');
}

/** What the console printed, as `inspect` shows it (console.error's own way). */
const consoleLines: string[] = [];

/** Everything written to stdout, stderr and the console while `act` runs. */
async function written(act: () => Promise<void>): Promise<string> {
  const lines: string[] = [];
  consoleLines.length = 0;
  const spies = [
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => lines.push(String(chunk)) > 0),
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => lines.push(String(chunk)) > 0),
    jest.spyOn(console, 'error').mockImplementation((...args) => {
      const line = args.map((arg) => (typeof arg === 'string' ? arg : inspect(arg, { depth: 10 }))).join(' ');
      lines.push(line);
      consoleLines.push(line);
    }),
  ];
  try {
    await act();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return lines.join('\n');
}

const traces = (text: string) => Object.values(PERSON).filter((value) => text.includes(value));

it.each(['single', 'transaction'] as const)(
  'an SDK error with an item image (%s write) leaves no trace of it in any log line',
  async (kind) => {
    const error = await refused(kind);
    // The error does carry the item: written whole, it would be in the log.
    expect(traces(inspect(error, { depth: 10, showHidden: true }))).toEqual(Object.values(PERSON));
    const requestId = (error as { $metadata?: { requestId?: string } }).$metadata?.requestId;

    const { errorResponse } = await import('../../shared/http/responses');
    const { sentAfterCommit } = await import('../../functions/after-commit');
    const { logger } = await import('../../shared/http/logger');
    const { LocalSchedule } = await import('../../infra/local/local-schedule');
    const output = await written(async () => {
      // A route's unexpected error (shared/http/handler.ts answers every error with errorResponse).
      expect(errorResponse(error, 'req-1').statusCode).toBe(500);
      // A queue send after a commit that failed: a warning with the error.
      await sentAfterCommit(() => Promise.reject(error), 'settlement', { payment_id: 'p-1' });
      // A worker's failure, the SDK error as the cause of ours.
      logger.error('Delivery failed: the queue hands it again', {
        message_id: 'm-1',
        error: new Error('failed', { cause: error }),
      });
      // The local runtime's scheduled run that failed: its console line.
      const schedule = new LocalSchedule('sweepStrandedWork', () => Promise.reject(error), 60_000, 1_000);
      for (
        let waited = 0;
        !consoleLines.some((line) => line.includes('scheduled run')) && waited < 5_000;
        waited += 50
      ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await schedule.stop();
      expect(consoleLines.some((line) => line.includes('scheduled run of sweepStrandedWork failed'))).toBe(true);
    });
    expect(traces(output)).toEqual([]);
    expect(output).not.toContain('CancellationReasons');
    expect(output).not.toContain('$response');
    // What is kept: enough to find the failure.
    expect(output).toContain(error.name);
    expect(output).toContain(error.message.slice(0, 40));
    if (requestId) expect(output).toContain(requestId);
    const lines = output.split('\n').filter((line) => line.startsWith('{'));
    expect(lines.length).toBeGreaterThanOrEqual(3);
  },
);
