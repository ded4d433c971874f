/**
 * POST /v1/payments: paying a resolved Bre-B key (docs/payments.md). The resolution names the payee
 * and is used once: the first payment made with it is the only one, and the same request again
 * answers that payment. The payment is written PENDING, its amount held. A payee at another
 * participant gets it through the network, answered later by a settlement job (shared/domain/
 * settlement.ts); one of our merchants through its inbound approval, within the request (SETTLED, or
 * REJECTED with the hold released: shared/domain/own-merchant-payments.ts).
 */
import type { CreatePaymentRequest } from '../schemas/payments';
import { getOwnAccount, type AccountStore, type StoredAccount } from './accounts';
import { newRecord, readWhile, type DecisionWait, type NewRecords } from './clock';
import { getOwnCustomer, type CustomerStore, type StoredCustomer } from './customers';
import { getCustomerResolution, type ResolutionStore, type StoredResolution } from './directory';
import { AppError, invalidField } from './errors';
import type { KeyStore } from './keys';
import {
  insufficientFunds,
  later,
  checkPaymentLimit,
  paymentAmountCents,
  paymentEvents,
  publicPayment,
  type PaymentReader,
  type PaymentWrite,
  type PublicPayment,
  type StoredPayment,
} from './payments';
import { paysOwnMerchant } from './own-merchant-payments';
import { UNDECIDED_AFTER_MS } from './receive-payment';
import { readTogether } from './read-together';
import type { SettlementScheduling } from './settlement';

export interface ResolutionPaymentWrite extends PaymentWrite {
  readonly resolutionId: string;
  /**
   * The resolution, when the payment made it (a recipient's key resolved again at payment time):
   * stored by the payment's own transaction, already used by it.
   */
  readonly newResolution?: StoredResolution;
  /** Must still be ACTIVE when the money moves. */
  readonly payerCustomerId: string;
  /** The payee's customer when it is one of ours (and not the payer): it must be ACTIVE to receive. */
  readonly payeeCustomerId?: string;
}

export type ResolutionPaymentResult =
  | { readonly written: true }
  | { readonly written: false; readonly reason: 'resolution_used'; readonly paymentId: string }
  | { readonly written: false; readonly reason: 'payer_inactive' | 'insufficient_funds' | 'payee_inactive' };

export interface ResolutionPaymentStore extends Pick<PaymentReader, 'get'> {
  /**
   * Writes the payments and their balance moves, and marks the resolution used, in one transaction;
   * nothing when the resolution is already used, the payer inactive, a debit not covered, or the
   * payee inactive.
   */
  insert(write: ResolutionPaymentWrite): Promise<ResolutionPaymentResult>;
}

/** What paying a resolution's payee reads and writes, whoever made the resolution. */
export interface PaymentDeps extends NewRecords {
  readonly customers: Pick<CustomerStore, 'get'>;
  readonly accounts: Pick<AccountStore, 'get'>;
  readonly keys: Pick<KeyStore, 'get'>;
  readonly payments: ResolutionPaymentStore;
  /** Our sponsor bank: the participant of our merchants' accounts. */
  readonly participant: { readonly name: string; readonly nit: string };
  /** Where a payment to another participant goes to be settled. */
  readonly settlement: SettlementScheduling;
  /** The stage's per-payment maximum (MAX_PAYMENT_CENTS). */
  readonly maxPaymentCents: number;
  /**
   * Answers a PENDING payment to one of our merchants by its payee's inbound approval, now (shared/
   * domain/own-merchant-payments.ts): the payment as it is afterwards.
   */
  readonly ownMerchants: {
    settle(payment: StoredPayment): Promise<StoredPayment>;
    /** How long a copy of the request waits for the first one's decision, reading the payment every `pollMs`. */
    readonly firstDecisionWait: DecisionWait;
  };
}

export interface PayResolutionDeps extends PaymentDeps {
  readonly resolutions: Pick<ResolutionStore, 'get'>;
}

/**
 * What the request asks to pay, from where: what makes two requests with one resolution (or one
 * Idempotency-Key, for a recipient's payment) the same payment.
 */
export interface PaymentIntent {
  readonly customerId: string;
  readonly accountId: string;
  readonly amountCents: number;
  readonly description?: string;
  /** The recipient paid, for a recipient's payment. */
  readonly recipientId?: string;
}

/** A POST /v1/payments naming a resolution. */
export type ResolutionPaymentRequest = CreatePaymentRequest & { readonly resolution_id: string };

/**
 * The intent of a POST /v1/payments: ids in lower case, the amount in cents (400 when not above zero,
 * or above the stage's per-payment maximum).
 */
export function paymentIntent(request: CreatePaymentRequest, maxPaymentCents: number): PaymentIntent {
  const amountCents = paymentAmountCents('amount.value', request.amount.value);
  checkPaymentLimit('amount.value', amountCents, maxPaymentCents);
  return {
    customerId: request.customer_id.toLowerCase(),
    accountId: request.account_id.toLowerCase(),
    amountCents,
    ...(request.description === undefined ? {} : { description: request.description }),
  };
}

const sameIntent = (payment: StoredPayment, intent: PaymentIntent): boolean =>
  payment.customer_id === intent.customerId &&
  payment.account_id === intent.accountId &&
  payment.amount_cents === intent.amountCents &&
  payment.description === intent.description &&
  payment.recipient_id === intent.recipientId;

const payerInactive = (customerId: string) =>
  new AppError('CUSTOMER_INACTIVE', `Customer ${customerId} is inactive: activate it before paying`);

/** Who pays: the customer and the account named, checked (readPayer). */
export interface Payer {
  readonly customer: StoredCustomer;
  readonly account: StoredAccount;
}

/**
 * The payer's customer and account, read together, then checked in this order: the customer
 * (404/403, ACTIVE), the account (404/403, the customer's, ACTIVE).
 */
export async function readPayer(deps: PaymentDeps, tenant: string, intent: PaymentIntent): Promise<Payer> {
  const [customerRead, accountRead] = await readTogether(
    getOwnCustomer(deps.customers, tenant, intent.customerId),
    getOwnAccount(deps.accounts, tenant, intent.accountId),
  );
  const customer = customerRead();
  if (customer.status !== 'ACTIVE') throw payerInactive(customer.id);
  const account = accountRead();
  if (account.customer_id !== customer.id) throw invalidField('account_id', 'is not an account of the customer');
  if (account.account_status !== 'ACTIVE')
    throw new AppError('ACCOUNT_INACTIVE', `Account ${account.id} is not active`);
  return { customer, account };
}

/**
 * POST /v1/payments. Unknown resolution 404, another client's 403, another customer's 400; a used
 * resolution answers its payment for the same request and 409 RESOLUTION_ALREADY_USED otherwise;
 * then the payer (readPayer), and the funds (400 INSUFFICIENT_FUNDS, nothing written). The
 * resolution and the payer are read together: a used resolution's retry reads the payer for nothing,
 * and every first request saves a round trip.
 */
export async function payResolution(
  deps: PayResolutionDeps,
  tenant: string,
  request: ResolutionPaymentRequest,
): Promise<PublicPayment> {
  const intent = paymentIntent(request, deps.maxPaymentCents);
  const [resolutionRead, payerRead] = await readTogether(
    getCustomerResolution(deps.resolutions, tenant, request.resolution_id, intent.customerId),
    readPayer(deps, tenant, intent),
  );
  const resolution = resolutionRead();
  if (resolution.payment_id) return answerAgain(deps, resolution.payment_id, intent);
  return payResolved(deps, tenant, intent, resolution, payerRead());
}

/**
 * Pays the payee of an unused resolution of the customer from the payer's account (not the payee's):
 * one transaction that marks the resolution used and moves the money (400 INSUFFICIENT_FUNDS,
 * nothing written). `made`: the resolution was made for this payment (a recipient's, shared/domain/
 * pay-recipient.ts) and the transaction stores it; a payment that took it first is answered as a
 * used resolution's is.
 */
export async function payResolved(
  deps: PaymentDeps,
  tenant: string,
  intent: PaymentIntent,
  resolution: StoredResolution,
  { customer, account }: Payer,
  made = false,
): Promise<PublicPayment> {
  const payeeAccount = await ourPayeeAccount(deps, resolution);
  if (payeeAccount?.id === account.id) {
    throw invalidField('account_id', 'is the account the resolved key pays into: a payment needs two accounts');
  }

  const record = newRecord(deps, tenant);
  // Our own merchant answers through its inbound approval, another participant through the network:
  // either way the payment waits PENDING, its amount held.
  const outbound: StoredPayment = {
    ...record,
    customer_id: customer.id,
    account_id: account.id,
    direction: 'OUTBOUND',
    status: 'PENDING',
    amount_cents: intent.amountCents,
    ...(intent.description === undefined ? {} : { description: intent.description }),
    resolution_id: resolution.id,
    ...(intent.recipientId === undefined ? {} : { recipient_id: intent.recipientId }),
    counterparty: {
      key: resolution.key,
      owner: resolution.owner,
      participant: resolution.participant,
      account: resolution.account,
    },
  };
  const debit = { accountId: account.id, paymentId: outbound.id, amountCents: -intent.amountCents };
  const events = paymentEvents(deps.ids, outbound, 'payment.outbound.confirmed');
  // Due when its answer should have come (the network's, or the payee's approval within this request):
  // a settlement job lost after the commit is found then.
  const dueIn = payeeAccount ? UNDECIDED_AFTER_MS : deps.settlement.delayMs;
  const result = await deps.payments.insert({
    resolutionId: resolution.id,
    ...(made ? { newResolution: resolution } : {}),
    payerCustomerId: customer.id,
    payments: [outbound],
    moves: [debit],
    events,
    workDueAt: { [outbound.id]: later(outbound.created_at, dueIn) },
  });

  if (!result.written) {
    switch (result.reason) {
      case 'resolution_used':
        return answerAgain(deps, result.paymentId, intent);
      case 'payer_inactive':
        throw payerInactive(customer.id);
      case 'insufficient_funds':
        throw insufficientFunds(account.id);
      default:
        throw new Error(`Payment ${outbound.id} refused: ${result.reason}`);
    }
  }
  return publicPayment(await sentToNetwork(deps, outbound));
}

/**
 * The account a resolved key pays into when the key is one of our merchants' (the directory entry
 * names its key; a key keeps its account for life). Undefined for a key at another participant.
 */
async function ourPayeeAccount(deps: PaymentDeps, resolution: StoredResolution): Promise<StoredAccount | undefined> {
  const { payee } = resolution;
  if (payee.source !== 'API') return undefined;
  const key = payee.key_id ? await deps.keys.get(payee.key_id) : undefined;
  const account = key ? await deps.accounts.get(key.account_id) : undefined;
  if (!account) throw new Error(`Resolution ${resolution.id} names a key of ours without an account`);
  return account;
}

/**
 * A PENDING payment's settlement job is scheduled: the fast path. The commit put the payment in the
 * index of due work, so a job lost here (a crash, a failed SendMessage) is run by the sweeper; a
 * retry of the request schedules it again too. Jobs answer a payment once, however many run. A
 * payment to one of our merchants is then answered within the request by the payee's approval (a
 * retry, or a racing copy, meets the same credit: its decision), its job only a backstop.
 */
async function sentToNetwork(deps: PaymentDeps, payment: StoredPayment): Promise<StoredPayment> {
  if (payment.status !== 'PENDING') return payment;
  const ownMerchant = paysOwnMerchant(payment, deps.participant);
  await deps.settlement.queue.schedule(
    payment.id,
    ownMerchant ? UNDECIDED_AFTER_MS : deps.settlement.delayMs,
    payment.tenant,
  );
  return ownMerchant ? deps.ownMerchants.settle(payment) : payment;
}

/**
 * How long a copy waits for the first request's decision (decidedByFirst): the payee's approval has
 * 3 s (DEFAULT_APPROVAL_TIMEOUT_MS), then the decision's writes.
 */
export const FIRST_DECISION_WAIT = { maxMs: 5_000, pollMs: 200 };

/**
 * A copy of a request (a racing duplicate, a retry) meets the payment the first one wrote. One to our
 * own merchant that is still PENDING is being decided by that first request: the copy waits for its
 * decision, and decides it itself only once the wait is over (the first request died, or the payee's
 * approval is slow). Copies deciding at once would only race the first to the same answer: 25 of them
 * made 25 approvals' worth of conflicting transactions, enough to stall DynamoDB Local.
 */
async function decidedByFirst(deps: PaymentDeps, payment: StoredPayment): Promise<StoredPayment> {
  if (!paysOwnMerchant(payment, deps.participant)) return payment;
  return readWhile(
    payment,
    (current) => current.status === 'PENDING',
    () => deps.payments.get(payment.id),
    deps.ownMerchants.firstDecisionWait,
  );
}

/**
 * A request naming a used resolution: the same request answers its payment, another one is 409
 * RESOLUTION_ALREADY_USED; for a recipient's payment, whose resolution its Idempotency-Key names,
 * 409 IDEMPOTENCY_KEY_REUSED.
 */
export async function answerAgain(deps: PaymentDeps, paymentId: string, intent: PaymentIntent): Promise<PublicPayment> {
  const payment = await deps.payments.get(paymentId);
  if (!payment) throw new Error(`Payment ${paymentId} of a used resolution does not exist`);
  if (!sameIntent(payment, intent)) {
    throw intent.recipientId === undefined
      ? new AppError(
          'RESOLUTION_ALREADY_USED',
          'A payment with another customer, account, amount or description was already made with this resolution',
          { payment_id: payment.id },
        )
      : new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key already paid another request', {
          payment_id: payment.id,
        });
  }
  return publicPayment(await sentToNetwork(deps, await decidedByFirst(deps, payment)));
}
