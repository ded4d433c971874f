/**
 * A child process of bench/functions.ts: the local API (infra/local/runtime.ts) serving every route
 * with one build's handlers (the Lambda bundles, or the baseline), in the environment Lambda gives a
 * function (bench/functions/lambda-environment.ts, set by the parent). It answers the parent over IPC:
 * its CPU time, the X-Ray documents its functions sent, and (capture mode) the API Gateway events
 * requests became, for the cold-start runs, without running the handlers. While the parent measures,
 * it holds the runtime's later work (`hold`): the stream reader, the dispatcher and the queues'
 * functions call DynamoDB too, and the meter would count their calls as the routes'.
 */
import { createSocket } from 'node:dgram';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import { startLocalRuntime } from '../../infra/local/runtime';
import { handlerEntry } from '../../infra/paths';
import type { LambdaHandler, LoadableFunction } from '../../infra/local/server';
import { ENV } from '../../shared/runtime/config';

export interface ServerConfig {
  /** The module of each route's handler, by route name. */
  readonly handlers: Record<string, string>;
  readonly dynamodbEndpoint: string;
  readonly tableName: string;
  readonly dataDir: string;
  readonly issuer: string;
}

export type ParentMessage =
  { type: 'cpu' } | { type: 'xray' } | { type: 'capture'; on: boolean } | { type: 'events' } | { type: 'hold' };

export type ServerMessage =
  | { type: 'ready'; url: string; environment: Record<string, string> }
  | { type: 'cpu'; micros: number }
  | { type: 'xray'; documents: number }
  | { type: 'capture'; on: boolean }
  | { type: 'events'; events: { route: string; event: unknown }[] }
  | { type: 'hold' };

const config = JSON.parse(process.env['BENCH_SERVER_CONFIG'] ?? '{}') as ServerConfig;
const reply = (message: ServerMessage) => process.send?.(message);

// The stand-in for the X-Ray daemon: counts the documents the functions send.
let xrayDocuments = 0;
const daemon = createSocket('udp4');
daemon.on('message', () => {
  xrayDocuments += 1;
});
await new Promise<void>((bound) => daemon.bind(0, '127.0.0.1', bound));
process.env['AWS_XRAY_DAEMON_ADDRESS'] = `127.0.0.1:${(daemon.address() as AddressInfo).port}`;

let capturing = false;
let captured: { route: string; event: unknown }[] = [];

async function loadHandler(route: LoadableFunction): Promise<LambdaHandler> {
  // A run limited to some routes (BENCH_ROUTES) built only those: the others, which make the
  // fixtures, run from their sources.
  const file = config.handlers[route.name] ?? handlerEntry(route.handler);
  const { handler } = (await import(pathToFileURL(file).href)) as { handler: LambdaHandler };
  return async (event, context) => {
    if (!capturing) return handler(event, context);
    captured.push({ route: route.name, event });
    return { statusCode: 202, headers: {}, body: '' };
  };
}

const runtime = await startLocalRuntime({
  port: 0,
  dataDir: config.dataDir,
  tableName: config.tableName,
  dynamodbEndpoint: config.dynamodbEndpoint,
  issuer: config.issuer,
  loadHandler,
  // DynamoDB Local stalls now and then under sixteen concurrent transactions on two cores: the
  // benchmark measures the functions, so it waits for it rather than answering 503.
  dynamodbRequestTimeoutMs: 15_000,
});

process.on('message', (message: ParentMessage) => {
  switch (message.type) {
    case 'cpu': {
      const { user, system } = process.cpuUsage();
      return reply({ type: 'cpu', micros: user + system });
    }
    case 'xray':
      return reply({ type: 'xray', documents: xrayDocuments });
    case 'capture':
      capturing = message.on;
      return reply({ type: 'capture', on: capturing });
    case 'events': {
      const events = captured;
      captured = [];
      return reply({ type: 'events', events });
    }
    case 'hold':
      // Answered once the work in progress (a batch of the stream, a queue's message) has finished;
      // the later work stays held until the server stops.
      return void runtime.pauseWorkers().then(() => reply({ type: 'hold' }));
  }
});
process.on('disconnect', () => {
  void runtime.stop().finally(() => process.exit(0));
});

// The functions' settings as the runtime left them (the QR signing secret among them), for the
// cold-start processes.
reply({
  type: 'ready',
  url: runtime.url,
  environment: Object.fromEntries(
    Object.values(ENV).flatMap((name) => {
      const value = process.env[name];
      return value === undefined ? [] : [[name, value]];
    }),
  ),
});
