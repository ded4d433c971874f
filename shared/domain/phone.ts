/**
 * Contact phone numbers are answered in one E.164 form. Colombian numbers have ten national digits,
 * so a number sent without its country code (10 digits) or without the plus (57 + 10 digits) is
 * Colombian; a number with a plus is taken as E.164 for any country.
 */
import { invalidField } from './errors';

const COLOMBIA = '57';
const NATIONAL_DIGITS = 10;

export function normaliseMobilePhone(raw: string, field = 'mobile_phone_number'): string {
  const digits = raw.startsWith('+') ? raw.slice(1) : raw;
  if (!/^[0-9]{7,15}$/.test(digits)) throw invalidField(field, 'must be an E.164 number of at most 15 digits');
  if (raw.startsWith('+')) {
    if (digits.startsWith(COLOMBIA) && digits.length !== COLOMBIA.length + NATIONAL_DIGITS) {
      throw invalidField(field, 'must have 10 digits after +57');
    }
    return `+${digits}`;
  }
  if (digits.length === NATIONAL_DIGITS) return `+${COLOMBIA}${digits}`;
  if (digits.length === COLOMBIA.length + NATIONAL_DIGITS && digits.startsWith(COLOMBIA)) return `+${digits}`;
  throw invalidField(
    field,
    'must be a 10-digit Colombian number, optionally prefixed by +57, or a full E.164 number with +',
  );
}
