/**
 * The network connector's contract (docs/network.md): what the sponsor bank's connector sends us,
 * signed. Its own OpenAPI document describes it, apart from the clients' one.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { ACCOUNT_NUMBER, allRequired, closedObject, matching, moneySchema, NIT, text, TIMESTAMP, UUID } from './common';
import {
  keyAccountSchema,
  keyOfAnyType,
  keyOwnerSchema,
  participantSchema,
  sandboxDirectoryKeyRequestSchema,
  typedKeySchema,
} from './keys';
import {
  counterpartyOwnerSchema,
  END_TO_END_ID,
  paymentAmountSchema,
  QR_CODE_REFERENCE,
  resolvedCounterpartySchema,
} from './payments';

/** `POST /network/v1/transfers/{id}/status`: the network's answer to one of our transfer orders. */
export const transferStatusRequestSchema = closedObject(
  {
    // The transfer the callback is about, as the order named it: a signed callback binds its path.
    transfer_id: UUID,
    end_to_end_id: END_TO_END_ID,
    status: { type: 'string', enum: ['SETTLED', 'REJECTED'] },
    reason: text(300),
  },
  ['transfer_id', 'end_to_end_id', 'status'],
);

/** The transfer as it stands once the status was applied (or had been already: `applied` false). */
export const transferStatusAnswerSchema = closedObject(
  {
    transfer_id: UUID,
    end_to_end_id: END_TO_END_ID,
    status: { type: 'string', enum: ['PENDING', 'SETTLED', 'REJECTED'] },
    applied: { type: 'boolean' },
  },
  ['transfer_id', 'end_to_end_id', 'status', 'applied'],
);

/** What every transfer order we POST to the connector carries (docs/network.md, "Transfer orders"). */
const ORDER_TYPE = { const: 'transfer.requested' } as const;
const orderFields = {
  transfer_id: UUID,
  end_to_end_id: END_TO_END_ID,
  amount: moneySchema,
  debtor: closedObject(
    {
      customer_id: UUID,
      account_id: UUID,
      participant: participantSchema,
    },
    ['customer_id', 'account_id', 'participant'],
  ),
  description: text(140),
  qr_code_reference: QR_CODE_REFERENCE,
  created_at: TIMESTAMP,
} as const;

const ORDER_REQUIRED = [
  'type',
  'kind',
  'transfer_id',
  'end_to_end_id',
  'amount',
  'debtor',
  'creditor',
  'created_at',
] as const;

/** A payment to another participant: the creditor as the key's resolution showed it, its account too. */
export const paymentOrderSchema = closedObject(
  { type: ORDER_TYPE, kind: { const: 'TRANSFER' }, ...orderFields, creditor: resolvedCounterpartySchema },
  ORDER_REQUIRED,
);

/**
 * Whom a return goes back to: the original credit's debtor as its bank named it. No account (a credit
 * names none): the network routes the return to the original debtor by `original_end_to_end_id`.
 */
export const returnCreditorSchema = closedObject({ owner: counterpartyOwnerSchema, participant: participantSchema }, [
  'owner',
  'participant',
]);

/**
 * A return (docs/network.md, "Returns"): a refund of a payment that came from the network, naming the
 * credit it gives money back for (`original_end_to_end_id`, that credit's end_to_end_id).
 */
export const returnOrderSchema = closedObject(
  {
    type: ORDER_TYPE,
    kind: { const: 'RETURN' },
    ...orderFields,
    original_end_to_end_id: END_TO_END_ID,
    creditor: returnCreditorSchema,
  },
  [...ORDER_REQUIRED, 'original_end_to_end_id'],
);

/**
 * A transfer order as we POST it to the connector (signed), of either kind: published in the
 * connector's OpenAPI document, and every order is checked against it before it is sent.
 */
export const transferOrderSchema = { oneOf: [paymentOrderSchema, returnOrderSchema] } as const;

/**
 * `POST /network/v1/credits` (docs/network.md, "Credits"): a shopper's bank pays one of our merchants'
 * keys, or one of its QR codes (`qr_code_reference`, the prefixed form the code carries). `tip` is
 * the part of `amount` the payer added as a tip, when the wallet shows one (a QR code's tip).
 */
export const creditRequestSchema = closedObject(
  {
    end_to_end_id: END_TO_END_ID,
    amount: paymentAmountSchema,
    tip: paymentAmountSchema,
    creditor: closedObject({ key: keyOfAnyType }, ['key']),
    debtor: closedObject(
      {
        name: text(140),
        participant: participantSchema,
        identification_type: keyOwnerSchema.properties.identification_type,
        identification_number: keyOwnerSchema.properties.identification_number,
      },
      ['name', 'participant'],
    ),
    description: text(140),
    qr_code_reference: QR_CODE_REFERENCE,
  },
  ['end_to_end_id', 'amount', 'creditor', 'debtor'],
);

export type CreditRequest = FromSchema<typeof creditRequestSchema>;

/** Why a credit was refused (docs/network.md, "Credits"). */
export const CREDIT_REJECTION_REASONS = [
  'KEY_NOT_FOUND',
  'QR_CODE_NOT_FOUND',
  'QR_CODE_NOT_PAYABLE',
  'AMOUNT_MISMATCH',
  'AMOUNT_ABOVE_LIMIT',
  'DAILY_LIMIT_REACHED',
  'CUSTOMER_INACTIVE',
  'KEY_INACTIVE',
  'APPROVAL_REFUSED',
  'APPROVAL_FAILED',
] as const;
export type CreditRejectionReason = (typeof CREDIT_REJECTION_REASONS)[number];

/** The answer to a credit: the merchant's decision, and its INBOUND payment when one was written. */
export const creditAnswerSchema = closedObject(
  {
    status: { type: 'string', enum: ['ACCEPTED', 'REJECTED'] },
    reason: { type: 'string', enum: CREDIT_REJECTION_REASONS },
    payment_id: UUID,
  },
  ['status'],
);

export type CreditAnswer = FromSchema<typeof creditAnswerSchema>;

/**
 * `POST /network/v1/credits/{end_to_end_id}/reversals` (docs/network.md, "Reversals"): the sponsor bank
 * takes back money it credited to one of our merchants (fraud, a mistaken credit), once per reversal_id.
 */
export const reversalRequestSchema = closedObject(
  {
    reversal_id: matching('^[A-Za-z0-9_-]{1,64}$', 'must be 1 to 64 letters, digits, - or _'),
    amount: paymentAmountSchema,
    reason: text(140),
  },
  ['reversal_id', 'amount', 'reason'],
);

export type ReversalRequest = FromSchema<typeof reversalRequestSchema>;

/** The reversal applied: the credit's payment, and how much of it has been taken back in all. */
export const reversalAnswerSchema = closedObject(
  {
    reversal_id: reversalRequestSchema.properties.reversal_id,
    end_to_end_id: END_TO_END_ID,
    payment_id: UUID,
    amount: moneySchema,
    reversed_amount: moneySchema,
  },
  ['reversal_id', 'end_to_end_id', 'payment_id', 'amount', 'reversed_amount'],
);

export type ReversalAnswer = FromSchema<typeof reversalAnswerSchema>;

/**
 * `PUT /network/v1/merchants/{identification_type}/{identification_number}` (docs/onboarding.md): the
 * sponsor bank's decision on a merchant, bound to the one platform (our client id) that may link it,
 * with the accounts it approved and the balance each opens with.
 */
export const merchantDecisionRequestSchema = closedObject(
  {
    platform: matching('^[A-Za-z0-9_.-]{1,128}$', 'must be a client id: 1 to 128 letters, digits, _ . -'),
    business_name: text(140),
    status: { type: 'string', enum: ['APPROVED', 'REVOKED'] },
    accounts: {
      type: 'array',
      maxItems: 100,
      items: allRequired({
        account_number: ACCOUNT_NUMBER,
        account_type: { type: 'string', enum: ['ORDINARY', 'SAVINGS', 'CHECKING'] },
        opening_balance: moneySchema,
      }),
    },
  },
  ['platform', 'business_name', 'status'],
);

export type MerchantDecisionRequest = FromSchema<typeof merchantDecisionRequestSchema>;

/**
 * The answer: the merchant as the bank's record now stands (every account approved for it, each
 * with the balance it opened with), and whether a linked customer was deactivated by this decision.
 */
export const merchantDecisionAnswerSchema = allRequired({
  identification_type: { type: 'string', enum: ['NIT'] },
  identification_number: NIT,
  platform: merchantDecisionRequestSchema.properties.platform,
  business_name: text(140),
  status: merchantDecisionRequestSchema.properties.status,
  accounts: { type: 'array', items: allRequired({ account_number: ACCOUNT_NUMBER, opening_balance: moneySchema }) },
  customer_deactivated: { type: 'boolean' },
});

export type MerchantDecisionAnswer = FromSchema<typeof merchantDecisionAnswerSchema>;

/** One of our public keys (RFC 8037): Ed25519, named by `kid` as our signatures' `keyid` names it. */
const publicJwkSchema = closedObject(
  {
    kty: { type: 'string', enum: ['OKP'] },
    crv: { type: 'string', enum: ['Ed25519'] },
    x: matching('^[A-Za-z0-9_-]{43}$', 'must be the base64url of 32 bytes'),
    kid: matching('^[A-Za-z0-9_.:-]{1,128}$', 'must be 1 to 128 letters, digits or _.:-'),
    alg: { type: 'string', enum: ['EdDSA'] },
    use: { type: 'string', enum: ['sig'] },
  },
  ['kty', 'crv', 'x', 'kid'],
);

/** `GET /network/v1/keys`: the keys the bank verifies our requests with, several during a rotation. */
export const networkKeysSchema = allRequired({ keys: { type: 'array', items: publicJwkSchema } });

/*
 * What we send the connector besides transfer orders (docs/network.md, "Directory" and "Inquiry"),
 * for its OpenAPI document's `webhooks`: the shapes the adapters write (shared/domain/network-directory.ts,
 * key-publishing.ts, transfer-orders.ts), not validators.
 */

/** `POST <connector>/v1/directory/lookups`: a key, and who asks (the paying customer, or our sponsor bank). */
export const directoryLookupSchema = allRequired({
  key: keyOfAnyType,
  requested_by: allRequired({ identification_type: text(20), identification_number: text(20) }),
});

/** A lookup's 200: the key's entry in the network's directory, as the sandbox's operator adds one. */
export const directoryEntrySchema = sandboxDirectoryKeyRequestSchema;

/** `POST <connector>/v1/directory/keys`: one of our merchants' keys, published. */
export const publishedKeySchema = allRequired({
  key: typedKeySchema,
  account: keyAccountSchema,
  owner: keyOwnerSchema,
});

/** `PATCH <connector>/v1/directory/keys/{key_type}/{key_value}`: whether the key resolves. */
export const publishedKeyStatusSchema = allRequired({ status: { type: 'string', enum: ['ACTIVE', 'SUSPENDED'] } });

/** `GET <connector>/v1/transfers/{end_to_end_id}`'s 200: what became of a transfer. */
export const transferInquiryAnswerSchema = closedObject(
  { status: { type: 'string', enum: ['PENDING', 'SETTLED', 'REJECTED', 'NOT_FOUND'] }, reason: text(300) },
  ['status'],
);

/**
 * One line of `PUT /network/v1/settlement-files/{date}` (docs/network.md, "Settlement files"): one
 * movement the bank settled on one of our clients' accounts that Bogotá day. `end_to_end_id` is the
 * transfer's (ours for a payment or refund we sent; the network's for a credit, and for the reversal
 * that takes a credit back); `direction` is the account's side: CREDIT money in, DEBIT money out.
 */
export const settlementLineSchema = closedObject(
  {
    end_to_end_id: END_TO_END_ID,
    direction: { type: 'string', enum: ['CREDIT', 'DEBIT'] },
    amount: paymentAmountSchema,
    account_number: ACCOUNT_NUMBER,
    settled_at: TIMESTAMP,
  },
  ['end_to_end_id', 'direction', 'amount', 'account_number', 'settled_at'],
);

export type SettlementLine = FromSchema<typeof settlementLineSchema>;

/**
 * A settlement file's lines, as the route reads them from its JSON lines body (one object a line):
 * validated as one array, so that every bad line is named at once.
 */
export const settlementFileRequestSchema = { type: 'array', items: settlementLineSchema } as const;

export type SettlementFileRequest = FromSchema<typeof settlementFileRequestSchema>;

/** The 202 of a settlement file: taken, its reconciliation PENDING. */
export const settlementFileAnswerSchema = allRequired({
  date: matching('^[0-9]{4}-[0-9]{2}-[0-9]{2}$', 'must be a day YYYY-MM-DD'),
  status: { type: 'string', enum: ['PENDING'] },
  line_count: { type: 'integer', minimum: 0 },
  received_at: TIMESTAMP,
});

export type SettlementFileAnswer = FromSchema<typeof settlementFileAnswerSchema>;
