/**
 * Building blocks of the refund tests against DynamoDB Local: a payment a merchant received (INBOUND,
 * SETTLED, its credit written with it as the payment flows write one), and the refund flows wired to
 * the real stores, their jobs held so that a test runs them when it chooses.
 */
import { randomUUID } from 'node:crypto';
import type { Counterparty, StoredPayment } from '../../shared/domain/payments';
import type { CreateRefundDeps, RefundQueue } from '../../shared/domain/refunds';
import type { SettleRefundDeps } from '../../shared/domain/refund-settlement';
import { sandboxNetwork } from '../../shared/domain/settlement';
import { dynamoPaymentStore, writePayment } from '../../shared/data/payments-repository';
import { dynamoRefundStore } from '../../shared/data/refunds-repository';
import { dynamoAccountStore } from '../../shared/data/accounts-repository';
import { DEFAULT_REFUND_WINDOW_DAYS } from '../../shared/runtime/config';
import { PARTICIPANT, type Merchant } from './payments';

const now = (): string => new Date().toISOString();

/** A refund queue that keeps the refunds scheduled, for the test to settle them when it chooses. */
export class HeldRefunds implements RefundQueue {
  readonly scheduled: string[] = [];

  async schedule(refundId: string): Promise<void> {
    this.scheduled.push(refundId);
  }
}

export const refundDeps = (queue: RefundQueue = new HeldRefunds()): CreateRefundDeps => ({
  payments: dynamoPaymentStore,
  refunds: dynamoRefundStore,
  queue,
  delayMs: 1000,
  windowDays: DEFAULT_REFUND_WINDOW_DAYS,
  participantNit: PARTICIPANT.nit,
  clock: { now },
  ids: { newId: () => randomUUID() },
});

export const refundSettlementDeps = (): SettleRefundDeps => ({
  refunds: dynamoRefundStore,
  payments: dynamoPaymentStore,
  network: sandboxNetwork,
  accounts: dynamoAccountStore,
  clock: { now },
  ids: { newId: () => randomUUID() },
});

/** Ana María at Banco Ejemplo, another participant: the payer of the payments below. */
export const SHOPPER: Counterparty = {
  owner: { identification_type: 'CC', identification_number: '1020304050', type: 'PERSON', first_name: 'Ana' },
  participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
  account: { account_number: '4001002003', account_type: 'SAVINGS' },
};

/** A payment of `cents` the merchant received from Ana María at Banco Ejemplo (or `payer`): SETTLED, credited. */
export async function receivedPayment(
  merchant: Merchant,
  cents: number,
  createdAt = now(),
  payer: Counterparty = SHOPPER,
): Promise<StoredPayment> {
  const payment: StoredPayment = {
    id: randomUUID(),
    tenant: merchant.customer.tenant,
    customer_id: merchant.customer.id,
    account_id: merchant.account.id,
    direction: 'INBOUND',
    status: 'SETTLED',
    amount_cents: cents,
    counterparty: payer,
    approval: 'NOT_REQUIRED',
    created_at: createdAt,
    updated_at: createdAt,
    settled_at: createdAt,
  };
  const outcome = await writePayment({
    payments: [payment],
    moves: [{ accountId: merchant.account.id, paymentId: payment.id, amountCents: cents }],
    events: [],
  });
  if (!outcome.written) throw new Error('The received payment was not written');
  return payment;
}
