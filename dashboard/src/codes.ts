/**
 * The API's codes with what they mean, for a person, in the language of the moment (the catalogs'
 * `code.<kind>.<code>` messages): every code the pages show is one of these or says itself.
 */
import { hasMessage, t } from './i18n';

export type CodeKind =
  | 'channel'
  | 'purpose'
  | 'direction'
  | 'qrType'
  | 'approval'
  | 'rejection'
  | 'deliveryMode'
  | 'keyType'
  | 'taxType'
  | 'movementKind'
  | 'refundStatus'
  | 'reconciliationStatus'
  | 'breakKind'
  | 'settlementDirection';

/** What a code means, or nothing when it is not one the page knows. */
export function meaningOf(kind: CodeKind, code: string): string | undefined {
  const key = `code.${kind}.${code}`;
  return hasMessage(key) ? t(key) : undefined;
}

/** "IM (printed or entered by hand)": a code and its meaning, as a choice or a value shows it. */
export function withMeaning(kind: CodeKind, code: string | undefined): string {
  if (!code) return '';
  const meaning = meaningOf(kind, code);
  return meaning ? `${code} (${meaning})` : code;
}
