/**
 * Finding a payment (GET /v1/payments?search=, docs/payments.md "Finding a payment"): each payment
 * item carries `search`, its words as a person would type them (accents folded, lower case), each
 * after a `|`: its id, its code's reference (the merchant's part), its description, the other side's
 * names and document number. A query's words must each start one of them (`contains(search, '|mostr')`),
 * so a reference is found by its start in any case and a payer by any of their names. Kept short
 * (MAX_SEARCH_LENGTH): the payment item is copied into four list indexes.
 */
import type { StoredPayment } from '../domain/payments';

/** The network's mark before the merchant's part of a code's reference (CO.COM.<ACQ>.TRXIDP<ref>). */
const REFERENCE_MARK = 'TRXIDP';
/** The most characters `search` holds: words past it are not found (a long description's last ones). */
const MAX_SEARCH_LENGTH = 240;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A text's words: accents folded (José, jose), lower case, split at anything but letters and digits. */
export const searchWords = (text: string): string[] =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** The `search` attribute of a payment item. */
export function searchTextOf(payment: StoredPayment): string {
  const owner = payment.counterparty.owner as Record<string, unknown>;
  const reference = payment.qr_code_reference;
  const merchantPart = reference?.includes(REFERENCE_MARK)
    ? reference.slice(reference.lastIndexOf(REFERENCE_MARK) + REFERENCE_MARK.length)
    : reference;
  const texts = [
    merchantPart,
    payment.description,
    ...['name', 'business_name', 'first_name', 'second_name', 'first_last_name', 'second_last_name'].map(
      (field) => owner[field],
    ),
    owner['identification_number'],
  ];
  const words = new Set(texts.flatMap((text) => (typeof text === 'string' ? searchWords(text) : [])));
  let search = `|${payment.id.toLowerCase()}`;
  for (const word of words) {
    if (search.length + word.length + 1 > MAX_SEARCH_LENGTH) break;
    search += `|${word}`;
  }
  return search;
}

/** What a query asks `search` to contain: a payment id whole, or the start of a word per word typed. */
export const searchTerms = (query: string | undefined): string[] | undefined => {
  if (query === undefined) return undefined;
  const typed = query.trim();
  return UUID.test(typed) ? [`|${typed.toLowerCase()}`] : searchWords(typed).map((word) => `|${word}`);
};
