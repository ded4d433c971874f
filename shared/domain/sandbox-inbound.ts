/**
 * POST /sandbox/payments/inbound (docs/sandbox.md): the sandbox's shopper, a person at another
 * participant, pays a key of one of the client's merchants, so a client can see an inbound payment
 * arrive, be approved or refused by its callback (shared/domain/receive-payment.ts), and be credited.
 * The simulator speaks the network's contract: it sends a credit, as the shopper's bank would
 * (docs/network.md, "Credits"), and answers the payment the credit made.
 */
import { createHash } from 'node:crypto';
import type { CreditAnswer, CreditRequest } from '../schemas/network';
import type { SandboxInboundPaymentRequest } from '../schemas/payments';
import type { IdGenerator, NewRecords } from './clock';
import type { DirectoryKey, DirectoryStore } from './directory';
import { AppError } from './errors';
import { parseKey } from './key-formats';
import type { KeyStore } from './keys';
import { cop } from './money';
import {
  checkPaymentLimit,
  paymentAmountCents,
  publicPayment,
  type PaymentReader,
  type PublicPayment,
  type ResolvedCounterparty,
  type StoredPayment,
} from './payments';
import type { QrCodeStore, StoredQrCode } from './qrcodes';
import { inboundRefusal, type InboundRefusal } from './receive-payment';

/** Who pays in the sandbox: the person of the sandbox directory, at Banco Ejemplo. */
export const SANDBOX_SHOPPER: ResolvedCounterparty = {
  owner: {
    identification_type: 'CC',
    identification_number: '1020304050',
    type: 'PERSON',
    first_name: 'Ana',
    second_name: 'María',
    first_last_name: 'Gómez',
    second_last_name: 'Pérez',
  },
  participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
  account: { account_number: '4001002003', account_type: 'SAVINGS' },
};

/** The shopper as its bank names it in a credit: a name and an identification, no account. */
const SANDBOX_DEBTOR: CreditRequest['debtor'] = {
  name: 'Ana María Gómez Pérez',
  participant: SANDBOX_SHOPPER.participant,
  identification_type: 'CC',
  identification_number: '1020304050',
};

/** Where credits go: `POST /network/v1/credits`, signed, as the network sends them. */
export interface CreditNetwork {
  credit(request: CreditRequest): Promise<CreditAnswer>;
}

/** What the simulator reads around the credit it sends, and where it sends it. */
export interface SandboxCreditDeps extends NewRecords {
  readonly network: CreditNetwork;
  readonly payments: Pick<PaymentReader, 'get'>;
  readonly keys: Pick<KeyStore, 'get'>;
  readonly qrCodes: Pick<QrCodeStore, 'get'>;
  /** The stage's per-payment maximum (MAX_PAYMENT_CENTS): refused before any credit is sent. */
  readonly maxPaymentCents: number;
}

export interface SandboxInboundDeps extends SandboxCreditDeps {
  readonly directory: Pick<DirectoryStore, 'get'>;
}

/**
 * The end_to_end_id of the simulator's credit: `SBX` and 32 hex digits (35 letters and digits). Under
 * an Idempotency-Key it follows from the client and the key, so that a retry of a request that failed
 * after its credit was written (the key freed) sends the same credit, and is answered its payment
 * rather than credited again; without one, a new credit each time.
 */
function sandboxEndToEndId(ids: IdGenerator, tenant: string, idempotencyKey: string | undefined): string {
  const unique =
    idempotencyKey === undefined
      ? ids.newId().replace(/-/g, '')
      : createHash('sha256').update(`${tenant}\n${idempotencyKey}`).digest('hex').slice(0, 32);
  return `SBX${unique}`;
}

/** The reasons of a credit refused with nothing written, as the sandbox's routes answer them. */
const REFUSED: Partial<Record<NonNullable<CreditAnswer['reason']>, InboundRefusal>> = {
  CUSTOMER_INACTIVE: 'customer_inactive',
  KEY_INACTIVE: 'key_inactive',
  QR_CODE_NOT_PAYABLE: 'code_not_payable',
};

/**
 * Sends the shopper's credit of `amountCents` to the merchant `customerId`'s key (its code's, for a
 * QR payment) and answers the INBOUND payment it made: SETTLED or REJECTED by the merchant's
 * approval. A credit refused before any payment was written is answered as the sandbox's routes
 * always answered it: 404 KEY_NOT_FOUND, 400 CUSTOMER_INACTIVE, 409 KEY_STATUS_CONFLICT or
 * QR_CODE_STATUS_CONFLICT.
 */
export async function sendSandboxCredit(
  deps: SandboxCreditDeps,
  to: {
    readonly tenant: string;
    readonly customerId: string;
    readonly keyId: string;
    readonly key: DirectoryKey;
    readonly idempotencyKey: string | undefined;
  },
  amountCents: number,
  extra: Pick<CreditRequest, 'description' | 'qr_code_reference' | 'tip'> & { readonly code?: StoredQrCode },
): Promise<PublicPayment> {
  checkPaymentLimit('amount.value', amountCents, deps.maxPaymentCents);
  const { code, ...fields } = extra;
  const answer = await deps.network.credit({
    end_to_end_id: sandboxEndToEndId(deps.ids, to.tenant, to.idempotencyKey),
    amount: cop(amountCents),
    creditor: { key: { key_type: to.key.key_type, key_value: to.key.key_value } },
    debtor: SANDBOX_DEBTOR,
    ...fields,
  });
  if (answer.payment_id) return publicPayment(await creditedPayment(deps, answer.payment_id));
  let refused = answer.reason ? REFUSED[answer.reason] : undefined;
  // A key suspended or deleted no longer resolves for the network; the sandbox names its status.
  if (answer.reason === 'KEY_NOT_FOUND' && (await deps.keys.get(to.keyId))?.status !== 'ACTIVE')
    refused = 'key_inactive';
  if (refused) throw await inboundRefusal(deps, refused, to.customerId, to.keyId, code);
  if (answer.reason === 'KEY_NOT_FOUND') throw keyNotFound(to.key.key_type);
  throw new Error(`The sandbox's credit to key ${to.keyId} was refused: ${answer.reason}`);
}

async function creditedPayment(deps: SandboxCreditDeps, paymentId: string): Promise<StoredPayment> {
  const payment = await deps.payments.get(paymentId);
  if (!payment) throw new Error(`Payment ${paymentId} of the sandbox's credit does not exist`);
  return payment;
}

const keyNotFound = (keyType: string) =>
  new AppError('KEY_NOT_FOUND', `No ACTIVE ${keyType} key of your merchants matches this value`);

/**
 * Pays the client's merchant that owns the key: 404 KEY_NOT_FOUND unless the key is an ACTIVE key of
 * one of the client's merchants (another client's key is not told apart from an unknown one). Answers
 * the INBOUND payment once decided: SETTLED or REJECTED.
 */
export async function receiveSandboxInboundPayment(
  deps: SandboxInboundDeps,
  tenant: string,
  request: SandboxInboundPaymentRequest,
  idempotencyKey?: string,
): Promise<PublicPayment> {
  const key = parseKey(request.key);
  const amountCents = paymentAmountCents('amount.value', request.amount.value);
  const entry = await deps.directory.get(key);
  const stored =
    entry?.status === 'ACTIVE' && entry.tenant === tenant && entry.key_id
      ? await deps.keys.get(entry.key_id)
      : undefined;
  if (!stored || stored.tenant !== tenant) throw keyNotFound(key.key_type);
  return sendSandboxCredit(
    deps,
    {
      tenant,
      customerId: stored.customer_id,
      keyId: stored.id,
      key: { key_type: stored.key_type, key_value: stored.key_value },
      idempotencyKey,
    },
    amountCents,
    request.description === undefined ? {} : { description: request.description },
  );
}
