/**
 * Finding a payment (GET /v1/payments?search=, docs/payments.md "Finding a payment"): each payment
 * item carries `search`, its words as a person would type them (accents folded, lower case), each
 * after a `|`: its code's reference (the merchant's part), its description, the other side's names
 * and document number. A query's words must each start one of them (`contains(search, '|mostr')`),
 * so a reference is found by its start in any case and a payer by any of their names; a payment's id
 * is found by the item's own `id`. Kept short: the payment item is copied into four list indexes,
 * and each kilobyte of it is a write unit in each copy (words of one or two letters and the commonest
 * Spanish ones are left out; at most MAX_SEARCH_LENGTH characters).
 */
import type { StoredPayment } from '../domain/payments';

/** The network's mark before the merchant's part of a code's reference (CO.COM.<ACQ>.TRXIDP<ref>). */
const REFERENCE_MARK = 'TRXIDP';
/** The most characters `search` holds: words past it are not found (a long description's last ones). */
const MAX_SEARCH_LENGTH = 100;
/** Words too common to find anything by: left out of `search` and of a query. */
const COMMON_WORDS = new Set(['del', 'los', 'las', 'por', 'con', 'para', 'una', 'que', 'sas']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A text's words a search goes by: accents folded (José, jose), lower case, split at anything but
 * letters and digits, without words of one or two letters and COMMON_WORDS.
 */
export const searchWords = (text: string): string[] =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 2 && !COMMON_WORDS.has(word));

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
  let search = '';
  for (const word of words) {
    if (search.length + word.length + 1 > MAX_SEARCH_LENGTH) break;
    search += `|${word}`;
  }
  return search;
}

/** A query that is a payment's id, whole: found by the item's `id`, lower case. */
export const searchedId = (query: string | undefined): string | undefined =>
  query !== undefined && UUID.test(query.trim()) ? query.trim().toLowerCase() : undefined;

/**
 * What a query asks `search` to contain: the start of a word per word typed (none for an id). A query
 * of short or common words only keeps them, as starts of longer words (`de` finds `desayuno`), rather
 * than asking for nothing and finding everything.
 */
export const searchTerms = (query: string | undefined): string[] | undefined => {
  if (query === undefined || searchedId(query)) return undefined;
  const words = searchWords(query);
  const typed =
    words.length > 0
      ? words
      : query
          .toLowerCase()
          .split(/[^a-z0-9]+/)
          .filter(Boolean);
  return typed.map((word) => `|${word}`);
};
