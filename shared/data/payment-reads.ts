/**
 * Reading payments: one by id, a list page, a walk. Apart from the writes (payments-repository.ts),
 * so that the routes that only read carry none of the ledger's code.
 */
import type { PaymentListFilters, PaymentReader, StoredPayment } from '../domain/payments';
import { itemKeys } from './item-keys';
import { listedStore, underCustomer } from './listed-records';
import { detailJoin, readPayment } from './payment-details';
import { searchedId, searchTerms } from './payment-search';

const BY_CUSTOMER = underCustomer<StoredPayment, PaymentListFilters>(
  'PAYMENT',
  itemKeys.payment,
  (filters) => ({
    account_id: filters.accountId,
    direction: filters.direction,
    status: filters.status,
    qr_code_reference: filters.qrCodeReference,
    amount_cents: filters.amountCents,
    id: searchedId(filters.search),
  }),
  // A retry meets the payment its first request wrote a moment before.
  true,
);

/** How payments are listed: under their customer, found by their words, read with their details. */
export const PAYMENTS = {
  ...BY_CUSTOMER,
  where: (filters: PaymentListFilters) => ({
    ...BY_CUSTOMER.where(filters),
    contains: { search: searchTerms(filters.search) },
  }),
  // Its lists read its details with it (shared/data/payment-details.ts).
  join: detailJoin,
};

/** A payment by id, with its details; without the list reads (createRefund's). */
export const dynamoPaymentGetter: Pick<PaymentReader, 'get'> = {
  // A retry meets the payment its first request wrote a moment before: strongly consistent.
  get: (id: string): Promise<StoredPayment | undefined> => readPayment(id, true),
};

export const dynamoPaymentReads: PaymentReader = /* @__PURE__ */ listedStore(PAYMENTS, dynamoPaymentGetter);
