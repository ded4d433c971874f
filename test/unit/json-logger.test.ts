/**
 * shared/observability/json-logger.ts writes the lines Powertools' Logger wrote (the functions' logger before it):
 * the same calls on both, the same lines out on the same streams, byte for byte.
 */
import { jest } from '@jest/globals';
import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { JsonLogger } from '../../shared/observability/json-logger';
import { injectLambdaContext as powertoolsInject } from '@aws-lambda-powertools/logger/middleware';

const saved = { ...process.env };

const context = {
  functionName: 'linkMerchant',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:linkMerchant',
  memoryLimitInMB: '512',
  awsRequestId: 'c6af9ac6-7b61-11e6-9a41-93e812345678',
} as Context;

beforeEach(() => {
  process.env = { ...saved };
  delete process.env['POWERTOOLS_LOG_LEVEL'];
  delete process.env['TZ'];
  Object.assign(process.env, {
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    _X_AMZN_TRACE_ID: 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1',
  });
});
afterEach(() => {
  jest.restoreAllMocks();
  process.env = { ...saved };
});

type Writable = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

/** What `act` writes to stdout and stderr, with the clock stopped. */
function written(act: () => void): { stdout: string[]; stderr: string[] } {
  jest.useFakeTimers({ now: new Date('2026-01-01T10:00:00.123Z'), doNotFake: ['nextTick', 'setImmediate'] });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => stdout.push(String(chunk)) > 0);
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => stderr.push(String(chunk)) > 0);
  try {
    act();
  } finally {
    out.mockRestore();
    err.mockRestore();
    jest.useRealTimers();
  }
  return { stdout, stderr };
}

/** The same calls on both loggers, each built after the environment is set (both read it then). */
function both(scenario: (logger: Writable, addContext: () => void) => void) {
  const powertools = written(() => {
    const logger = new Logger({ serviceName: 'breb-merchant-api' });
    const inject = powertoolsInject(logger, { resetKeys: true });
    scenario(logger, () => void inject.before!({ context } as never));
  });
  const ours = written(() => {
    const logger = new JsonLogger({ serviceName: 'breb-merchant-api' });
    scenario(logger as unknown as Writable, () => logger.addContext(context));
  });
  return { powertools, ours };
}

class DependencyError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message, { cause: new Error('socket hang up') });
    this.name = 'DependencyError';
  }
}

/** One error for both loggers: its stack names where it was made. */
const FAILURE = new DependencyError('the table did not answer', 'ECONNRESET');

test.each([
  [
    'the request line of an invocation',
    (l: Writable, add: () => void) => {
      add();
      l.info('request', {
        function: 'linkMerchant',
        route: 'POST /v1/customers/business/link',
        status: 200,
        duration_ms: 12,
      });
    },
  ],
  [
    'warnings and errors, with an error and its cause',
    (l: Writable, add: () => void) => {
      add();
      l.warn('dependency unavailable', { error_name: 'TimeoutError', error_code: 'ETIMEDOUT' });
      l.error('unexpected error', FAILURE);
    },
  ],
  [
    'the second invocation of an environment is warm',
    (l: Writable, add: () => void) => {
      add();
      l.info('first');
      add();
      l.info('second');
    },
  ],
  ['outside Lambda: no context', (l: Writable) => l.info('request', { status: 404, code: 'NOT_FOUND' })],
  ['debug is below the default level', (l: Writable) => l.debug('not written')],
  [
    'empty attributes are left out, big integers written',
    (l: Writable) =>
      l.info('values', { empty: '', nothing: null, missing: undefined, big: 10n ** 20n, nested: { ok: true } }),
  ],
])('%s', (_what, scenario) => {
  const { powertools, ours } = both(scenario);
  expect(ours).toEqual(powertools);
});

test.each([
  ['POWERTOOLS_LOG_LEVEL', 'WARN'],
  ['LOG_LEVEL', 'ERROR'],
  ['AWS_LAMBDA_LOG_LEVEL', 'DEBUG'],
])('the level comes from %s', (variable, level) => {
  process.env[variable] = level;
  const { powertools, ours } = both((l) => {
    l.debug('debug');
    l.info('info');
    l.warn('warn');
    l.error('error');
  });
  expect(ours).toEqual(powertools);
});
