/**
 * Waiting for the network's answer to a payment through the API, as a client does: polling
 * GET /v1/payments/{id} until it is no longer PENDING, a bounded number of times (a payment that
 * never settles fails the test instead of hanging it).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiAnswer, TestApi } from './local-api';

/** A short settlement delay for tests (SANDBOX_SETTLEMENT_DELAY_MS): PENDING for a moment, then answered. */
export const TEST_SETTLEMENT_DELAY_MS = 200;

/** The payment once it has left `waitingIn` (PENDING: the network's answer; PROCESSING: the approval's decision). */
export async function answeredPayment(
  api: Pick<TestApi, 'request'>,
  token: string,
  paymentId: string,
  { attempts = 100, intervalMs = 100, waitingIn = 'PENDING' } = {},
): Promise<ApiAnswer> {
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const read = await api.request('GET', `/v1/payments/${paymentId}`, { token });
    if (read.status !== 200) throw new Error(`Payment ${paymentId} read failed: ${read.status} ${read.text}`);
    if (read.body.status !== waitingIn) return read;
    await sleep(intervalMs);
  }
  throw new Error(`Payment ${paymentId} still ${waitingIn} after ${attempts} reads`);
}

/**
 * A settlement delay no test outlasts: for tests that count DynamoDB calls or diff the table around
 * one request, where a settlement job running in the background would be counted with it. The jobs
 * are dropped when the runtime stops (their payments stay PENDING, as after a crash).
 */
export const SETTLEMENT_AFTER_THE_TESTS = 24 * 60 * 60 * 1000;
