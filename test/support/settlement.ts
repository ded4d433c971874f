/**
 * Waiting for the network's answer to a payment or a refund through the API, as a client does:
 * polling GET /v1/payments/{id} or GET /v1/refunds/{id} until it is no longer PENDING, a bounded
 * number of times (one that never settles fails the test instead of hanging it).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiAnswer, TestApi } from './local-api';

/** A short settlement delay for tests (SANDBOX_SETTLEMENT_DELAY_MS): PENDING for a moment, then answered. */
export const TEST_SETTLEMENT_DELAY_MS = 200;

/** The payment once it has left `waitingIn` (PENDING: the network's answer; PROCESSING: the approval's decision). */
export const answeredPayment = (
  api: Pick<TestApi, 'request'>,
  token: string,
  paymentId: string,
  options: AnswerPolling = {},
): Promise<ApiAnswer> => answeredAt(api, token, `/v1/payments/${paymentId}`, options);

/** The refund once the network has answered it (no longer PENDING). */
export const answeredRefund = (
  api: Pick<TestApi, 'request'>,
  token: string,
  refundId: string,
  options: AnswerPolling = {},
): Promise<ApiAnswer> => answeredAt(api, token, `/v1/refunds/${refundId}`, options);

interface AnswerPolling {
  readonly attempts?: number;
  readonly intervalMs?: number;
  readonly waitingIn?: string;
}

async function answeredAt(
  api: Pick<TestApi, 'request'>,
  token: string,
  path: string,
  { attempts = 100, intervalMs = 100, waitingIn = 'PENDING' }: AnswerPolling,
): Promise<ApiAnswer> {
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const read = await api.request('GET', path, { token });
    if (read.status !== 200) throw new Error(`${path} read failed: ${read.status} ${read.text}`);
    if (read.body.status !== waitingIn) return read;
    await sleep(intervalMs);
  }
  throw new Error(`${path} still ${waitingIn} after ${attempts} reads`);
}

/**
 * A settlement delay no test outlasts: for tests that count DynamoDB calls or diff the table around
 * one request, where a settlement job running in the background would be counted with it. The jobs
 * are dropped when the runtime stops (their payments stay PENDING, as after a crash).
 */
export const SETTLEMENT_AFTER_THE_TESTS = 24 * 60 * 60 * 1000;
