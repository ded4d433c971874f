/**
 * Building blocks of the payment tests against DynamoDB Local: merchants with funded accounts, their
 * keys and QR codes (built by test/support/stored-entities.ts), keys of another participant, stored
 * resolutions, the real repositories wired into the payment flows, and an account's ledger read back
 * from its movements. Call after createTestTable (the repositories read the table's name on first
 * use).
 */
import { DEFAULT_MAX_PAYMENT_CENTS } from '../../shared/runtime/config';
import { randomUUID } from 'node:crypto';
import type { StoredAccount } from '../../shared/domain/accounts';
import type { StoredCustomer } from '../../shared/domain/customers';
import type { DirectoryEntry, StoredResolution } from '../../shared/domain/directory';
import { dynamoCreditAnswers } from '../../shared/data/credit-answers-repository';
import { receiveCredit, type ReceiveCreditDeps } from '../../shared/domain/network-credits';
import {
  routedNetwork,
  settleOwnMerchantPayment,
  type OwnMerchantCreditDeps,
} from '../../shared/domain/own-merchant-payments';
import type { PayQrCodeDeps } from '../../shared/domain/pay-qr-code';
import { FIRST_DECISION_WAIT, type PayResolutionDeps } from '../../shared/domain/pay-resolution';
import type { StoredQrCode } from '../../shared/domain/qrcodes';
import { sandboxNetwork, type SettlementQueue, type SettlePaymentDeps } from '../../shared/domain/settlement';
import { dynamoAccountStore } from '../../shared/data/accounts-repository';
import { dynamoCustomerStore } from '../../shared/data/customers-repository';
import { dynamoDirectory, dynamoResolutionStore } from '../../shared/data/directory-repository';
import { queryItemCollection } from '../../shared/data/item-collection';
import { itemKeys } from '../../shared/data/item-keys';
import { dynamoKeyStore } from '../../shared/data/keys-repository';
import { dynamoApprovalSettingsStore } from '../../shared/data/approval-settings-repository';
import { systemHostResolver } from '../../shared/data/host-resolver';
import {
  dynamoInboundPaymentStore,
  dynamoPaymentStore,
  dynamoSettlementStore,
  writePayment,
} from '../../shared/data/payments-repository';
import type { StoredPayment } from '../../shared/domain/payments';
import { httpWebhookTransport } from '../../shared/data/webhook-transport';
import { dynamoQrCodeReferences, dynamoQrCodeStore } from '../../shared/data/qrcodes-repository';
import type { Item, TestTable } from './dynamo-table';
import { insertAccount, insertOwner, keyOf, qrCodeOf, type Owner } from './stored-entities';
import { testSealer } from './sealer';

export const PARTICIPANT = { name: 'Banco Patrocinador S.A.', nit: '860000001' } as const;

const now = (): string => new Date().toISOString();
let counter = 0;
const unique = (): number => (process.pid % 10_000) * 100_000 + ++counter;

/**
 * A settlement queue that keeps the payments scheduled, so that a test runs their settlement jobs
 * when it chooses (settlePayment with settlementDeps), between, after or at the same time as others.
 */
export class HeldSettlements implements SettlementQueue {
  readonly scheduled: string[] = [];

  async schedule(paymentId: string): Promise<void> {
    this.scheduled.push(paymentId);
  }
}

export const SETTLEMENT_DELAY_MS = 1000;

/**
 * The real payment flow's dependencies: every store is the DynamoDB one; a payment to one of our
 * merchants is answered by the payee's credit and approval, as the function does.
 */
export const paymentDeps = (queue: SettlementQueue = new HeldSettlements()): PayResolutionDeps => ({
  resolutions: dynamoResolutionStore,
  customers: dynamoCustomerStore,
  accounts: dynamoAccountStore,
  keys: dynamoKeyStore,
  payments: dynamoPaymentStore,
  participant: PARTICIPANT,
  settlement: { queue, delayMs: SETTLEMENT_DELAY_MS },
  maxPaymentCents: DEFAULT_MAX_PAYMENT_CENTS,
  clock: { now },
  ids: { newId: () => randomUUID() },
  ownMerchants: {
    settle: (payment) => settleOwnMerchantPayment(ownMerchantCreditDeps(queue), settlementDeps(), payment),
    firstDecisionWait: FIRST_DECISION_WAIT,
  },
});

/** The payee's side of a payment between our merchants: its credit's stores, approval and decision jobs. */
export const ownMerchantCreditDeps = (decisionJobs: SettlementQueue = new HeldSettlements()): OwnMerchantCreditDeps => {
  const { network: _sandboxCredits, qrReferences: _references, ...credit } = qrPaymentDeps(decisionJobs);
  return { ...credit, customers: dynamoCustomerStore, accounts: dynamoAccountStore, participant: PARTICIPANT };
};

/** The settlement job's dependencies: the DynamoDB stores and the sandbox network, our own merchants apart. */
export const settlementDeps = (): SettlePaymentDeps => ({
  payments: dynamoSettlementStore,
  // As the settlement function: our own merchants answer through their approval.
  network: routedNetwork(ownMerchantCreditDeps(), sandboxNetwork),
  approvalSettings: dynamoApprovalSettingsStore,
  qrCodes: dynamoQrCodeStore,
  clock: { now },
  ids: { newId: () => randomUUID() },
});

/**
 * The real QR payment flow's dependencies: the DynamoDB stores, the HTTP client of approval
 * callbacks (on this machine's loopback: the local stage's URL rules), and decision jobs held. The
 * sandbox's credits go straight to the credit rules (shared/domain/network-credits.ts), unsigned: the
 * signed route they take in a function is the end-to-end tests' (test/e2e/network-connector.test.ts).
 */
export function qrPaymentDeps(
  decisionJobs: SettlementQueue = new HeldSettlements(),
): PayQrCodeDeps & ReceiveCreditDeps {
  const deps: Omit<ReceiveCreditDeps, 'network'> = {
    qrCodes: dynamoQrCodeStore,
    keys: dynamoKeyStore,
    payments: dynamoInboundPaymentStore,
    approvalSettings: dynamoApprovalSettingsStore,
    approvalCallback: {
      transport: httpWebhookTransport,
      urls: { urlPolicy: { localReceivers: true }, resolver: systemHostResolver },
      timeoutMs: 3_000,
      sealer: testSealer,
    },
    decisionJobs,
    maxPaymentCents: DEFAULT_MAX_PAYMENT_CENTS,
    clock: { now },
    ids: { newId: () => randomUUID() },
    creditAnswers: dynamoCreditAnswers,
    directory: dynamoDirectory,
    qrReferences: dynamoQrCodeReferences,
    decisionWait: { maxMs: 5_000, pollMs: 100 },
  };
  return { ...deps, network: { credit: (credit) => receiveCredit(deps, credit) } };
}

export type Merchant = Owner;

const stores = { customers: dynamoCustomerStore, accounts: dynamoAccountStore };

/** A customer of `tenant` with one account opened with `balanceCents` (its opening movement). */
export const storedMerchant = (tenant: string, balanceCents: number): Promise<Merchant> =>
  insertOwner(stores, tenant, balanceCents);

/** Another account of the merchant's customer. */
export const storedAccount = (customer: StoredCustomer, balanceCents: number): Promise<StoredAccount> =>
  insertAccount(dynamoAccountStore, customer, balanceCents);

/** Registers an ALPHA key of ours for the merchant's account: its directory entry. */
export async function ourKey(merchant: Merchant): Promise<DirectoryEntry> {
  const [key, entry] = keyOf(merchant, 'ALPHA', `@pay${unique()}`);
  const inserted = await dynamoKeyStore.insert(key, entry);
  if (!inserted.inserted) throw new Error(`Key not inserted: ${inserted.reason}`);
  return entry;
}

/** A QR code of a new key of the merchant, inserted (STATIC without an amount unless `extra` says). */
export async function storedQrCode(merchant: Merchant, extra: Partial<StoredQrCode> = {}): Promise<StoredQrCode> {
  const entry = await ourKey(merchant);
  const code = qrCodeOf(merchant, entry.key_id!, undefined, { key: entry.key, ...extra });
  const inserted = await dynamoQrCodeStore.insert(code);
  if (!inserted.inserted) throw new Error(`QR code not inserted: ${inserted.reason}`);
  return code;
}

/** A key of a person at another participant, in the directory. */
export async function otherParticipantKey(): Promise<DirectoryEntry> {
  const at = now();
  const entry: DirectoryEntry = {
    key: { key_type: 'ALPHA', key_value: `@other${unique()}` },
    owner: {
      identification_type: 'CC',
      identification_number: '1020304050',
      type: 'PERSON',
      first_name: 'Ana',
      first_last_name: 'Gómez',
    },
    participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
    account: { account_number: '4001002003', account_type: 'SAVINGS' },
    source: 'SANDBOX',
    status: 'ACTIVE',
    created_at: at,
    updated_at: at,
  };
  if (!(await dynamoDirectory.insertSandbox(entry, [])).inserted) throw new Error('Sandbox key not inserted');
  return entry;
}

/** A stored resolution of `payee` for the payer's customer, as resolve-key stores it. */
export async function storedResolution(payer: Merchant, payee: DirectoryEntry): Promise<StoredResolution> {
  const resolution: StoredResolution = {
    id: randomUUID(),
    customer_id: payer.customer.id,
    resolved_at: now(),
    key: payee.key,
    owner: payee.owner,
    participant: payee.participant,
    account: payee.account,
    tenant: payer.customer.tenant,
    payee,
  };
  await dynamoResolutionStore.insert(resolution);
  return resolution;
}

/** The request of POST /v1/payments for a payer and a resolution. */
export const paymentRequest = (payer: Merchant, resolution: StoredResolution, value: string, description?: string) => ({
  customer_id: payer.customer.id,
  account_id: payer.account.id,
  resolution_id: resolution.id,
  amount: { value, currency: 'COP' as const },
  ...(description === undefined ? {} : { description }),
});

export interface Ledger {
  /** The account's available balance, as stored on the account. */
  readonly balanceCents: number;
  /** The sum of its movements, opening balance included. */
  readonly movementsCents: number;
  readonly movements: Record<string, unknown>[];
}

export async function ledgerOf(accountId: string): Promise<Ledger> {
  const [account, movements] = await Promise.all([
    dynamoAccountStore.get(accountId),
    queryItemCollection(itemKeys.account(accountId).pk, itemKeys.movementPrefix),
  ]);
  if (!account) throw new Error(`No account ${accountId}`);
  return {
    balanceCents: account.available_balance_cents,
    movementsCents: movements.reduce((sum, movement) => sum + Number(movement['amount_cents']), 0),
    movements,
  };
}

/**
 * The events written about one payment (the outbox's EVENT items whose data is that payment), in
 * the order of their changes: what each committed change reported.
 */
export async function eventsOf(table: Pick<TestTable, 'scan'>, paymentId: string): Promise<Item[]> {
  const events = await table.scan((item) => item['entity'] === 'EVENT' && item['data']?.['id'] === paymentId);
  return events.sort((a, b) => String(a['created_at']).localeCompare(String(b['created_at'])) || order(a) - order(b));
}

/** Events of one change share its time: reported in the order the change's transaction lists them. */
const EVENT_ORDER = [
  'payment.outbound.confirmed',
  'payment.inbound.received',
  'payment.settled',
  'payment.inbound.confirmed',
  'payment.rejected',
];
const order = (event: Item): number => EVENT_ORDER.indexOf(String(event['type']));

/** The merchants of seedReceivedPayments: each write holds one payment of each (one move per account). */
const SEED_MERCHANTS = 8;

/**
 * `count` payments of 1.00 to 2.00 received over the `days` days that end now by SEED_MERCHANTS new
 * merchants of `tenant`, SETTLED and credited to their accounts, oldest first: written by
 * writePayment, the one way payments are written, as a month of sales would have been (lists,
 * counters, daily totals, ledger), without the requests that would take minutes to make them.
 */
export async function seedReceivedPayments(tenant: string, count: number, days: number): Promise<void> {
  const end = Date.now() - 60_000;
  const span = (days - 1) * 86_400_000;
  const merchants = await Promise.all(Array.from({ length: SEED_MERCHANTS }, () => storedMerchant(tenant, 0)));
  for (let first = 0; first < count; first += SEED_MERCHANTS) {
    const at = new Date(end - span + Math.floor((span * first) / count)).toISOString();
    const payments = merchants.slice(0, count - first).map(({ account }, index): StoredPayment => ({
      id: randomUUID(),
      tenant,
      customer_id: account.customer_id,
      account_id: account.id,
      direction: 'INBOUND',
      status: 'SETTLED',
      amount_cents: 100 + ((first + index) % 101),
      counterparty: {
        owner: { name: 'Comprador de prueba' },
        participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
      },
      approval: 'NOT_REQUIRED',
      created_at: at,
      updated_at: at,
      settled_at: at,
    }));
    const outcome = await writePayment({
      payments,
      moves: payments.map((p) => ({ accountId: p.account_id, paymentId: p.id, amountCents: p.amount_cents })),
      events: [],
    });
    if (!outcome.written) throw new Error(`Seeded payments refused by ${[...outcome.failed.keys()].join(', ')}`);
  }
}
