/**
 * What the shared Middy chain (shared/http/handler.ts) costs a warm function, with nothing else in
 * the way: two routes whose own work is nothing (they answer a constant), called in-process in the
 * environment Lambda gives a function (logs, EMF metrics and X-Ray documents are all written), one
 * call at a time. GET: auth context, query validation, logging, metrics, tracing. POST: the same
 * plus body size, JSON parsing and validation of a link-merchant body (no Idempotency-Key: that is
 * DynamoDB work, counted with the routes). bench/functions.ts builds this file the baseline way and
 * the current way and runs each in a process of its own; the result goes to file descriptor 3.
 */
import { writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { httpHandler } from '../../shared/http/handler';
import type { ApiContext, ApiEvent } from '../../shared/http/middlewares';
import { linkMerchantRequest } from '../../shared/schemas/generated/customers';
import { apiEvent } from '../api-event';

const WARMUP = Number(process.env['BENCH_OVERHEAD_WARMUP'] ?? 500);
const CALLS = Number(process.env['BENCH_OVERHEAD_CALLS'] ?? 3000);

const ANSWER = { id: '7d0b1a4e-6c1f-4c47-9d3e-5b8f0a2c9e11', status: 'ACTIVE' };

const routes = {
  get: httpHandler({ name: 'benchGet', handle: async () => ANSWER }),
  post: httpHandler({ name: 'benchPost', body: linkMerchantRequest, handle: async () => ANSWER }),
};

const LINK_BODY = {
  type: 'BUSINESS',
  business_name: 'Tienda La Esperanza SAS',
  email: 'pagos@esperanza.co',
  mobile_phone_number: '3001234567',
  identification_type: 'NIT',
  identification_number: '900123456',
  address: { line_1: 'Calle 10 # 5-20', city: 'Bogotá', state: 'Cundinamarca', post_code: '110111', country: 'CO' },
  merchant_category_code: '5411',
};

function eventOf(method: 'GET' | 'POST', requestId: string): ApiEvent {
  return apiEvent({
    method,
    path: method === 'GET' ? '/v1/bench/7d0b1a4e-6c1f-4c47-9d3e-5b8f0a2c9e11' : '/v1/bench',
    ...(method === 'POST' ? { body: LINK_BODY } : {}),
    tenant: 'bench-client',
    scopes: ['breb/customers.write'],
    requestId,
  }) as ApiEvent;
}

const context = (requestId: string) =>
  ({
    functionName: 'bench',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:bench',
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    getRemainingTimeInMillis: () => 10_000,
  }) as unknown as ApiContext;

async function measure(method: 'GET' | 'POST'): Promise<number[]> {
  const handler = routes[method === 'GET' ? 'get' : 'post'];
  const micros: number[] = [];
  for (let i = 0; i < WARMUP + CALLS; i += 1) {
    // Middy rewrites the event (the parsed body): each call gets a new one, built outside the timing.
    const event = eventOf(method, `req-${i}`);
    const started = performance.now();
    const response = await handler(event, context(`req-${i}`));
    const took = performance.now() - started;
    if (response.statusCode !== 200) throw new Error(`${method} answered ${response.statusCode}: ${response.body}`);
    if (i >= WARMUP) micros.push(took * 1000);
  }
  return micros;
}

const get = await measure('GET');
const post = await measure('POST');
writeSync(3, JSON.stringify({ get, post }));
process.exit(0);
