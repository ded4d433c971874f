/**
 * EMVCo TLV: every field is ID (2 digits) + LENGTH (2 digits, 01-99) + VALUE, and a template is a
 * field whose value is itself a list of such fields. Lengths count characters: the payloads we write
 * are printable ASCII, so characters and bytes agree; a third-party payload with other characters is
 * read by code points.
 */
import { QrFieldError } from './errors';
import { DecodeError } from './decode-error';

export interface TlvField {
  readonly id: string;
  readonly value: string;
}

export const MAX_TLV_VALUE_LENGTH = 99;

const TWO_DIGITS = /^[0-9]{2}$/;
const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;
// eslint-disable-next-line no-control-regex -- the whole 7-bit range is the point: control characters are ASCII too.
const ASCII = /^[\x00-\x7F]*$/;

/**
 * One field. The value must be 1 to 99 printable ASCII characters; anything else is a
 * VALIDATION_FAILED error naming `field` (the input member the value came from), since values that
 * do not fit come from the request.
 */
export function encodeTlv(id: string, value: string, field = `tag ${id}`): string {
  if (!TWO_DIGITS.test(id)) throw new RangeError(`A TLV id is two digits, not '${id}'`);
  if (value.length === 0) throw new QrFieldError(field, `must not be empty (tag ${id})`);
  if (value.length > MAX_TLV_VALUE_LENGTH) {
    throw new QrFieldError(
      field,
      `makes tag ${id} of the QR payload ${value.length} characters long; at most ${MAX_TLV_VALUE_LENGTH} fit`,
    );
  }
  if (!PRINTABLE_ASCII.test(value)) {
    throw new QrFieldError(field, `must be printable ASCII in the QR payload (tag ${id})`);
  }
  return `${id}${value.length < 10 ? '0' : ''}${value.length}${value}`;
}

/** A template: its sub-fields, in the order given, as the value of field `id`. */
export function encodeTemplate(
  id: string,
  fields: ReadonlyArray<readonly [string, string]>,
  field = `tag ${id}`,
): string {
  return encodeTlv(id, fields.map(([subId, value]) => encodeTlv(subId, value, field)).join(''), field);
}

/** Writes parsed fields back, byte for byte what was parsed (lengths counted in code points). */
export function serializeTlv(fields: readonly TlvField[]): string {
  let out = '';
  for (const { id, value } of fields) {
    const length = codePointLength(value);
    out += `${id}${length < 10 ? '0' : ''}${length}${value}`;
  }
  return out;
}

export function codePointLength(value: string): number {
  if (ASCII.test(value)) return value.length;
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

export interface ParseTlvOptions {
  /** Where `input` starts in the whole payload, for error positions (code points). */
  readonly offset?: number;
  /** The template being parsed, e.g. '62', for error messages. */
  readonly path?: string;
}

/**
 * Splits `input` into its fields, in order. Throws only DecodeError: on an id or length that is not
 * two digits, a length of 00, or a value running past the end. An empty input is an empty list.
 */
export function parseTlv(input: string, options: ParseTlvOptions = {}): TlvField[] {
  const offset = options.offset ?? 0;
  const where = (position: number, id?: string): string => {
    const tag = id === undefined ? options.path : options.path ? `${options.path}.${id}` : id;
    return `${tag ? `in tag ${tag} ` : ''}at character ${offset + position}`;
  };
  // ASCII payloads are indexed directly; others by code point, so lengths count characters.
  const chars: string | string[] = ASCII.test(input) ? input : Array.from(input);
  const take = (start: number, end: number): string =>
    typeof chars === 'string' ? chars.slice(start, end) : chars.slice(start, end).join('');

  const fields: TlvField[] = [];
  let position = 0;
  while (position < chars.length) {
    const remaining = chars.length - position;
    if (remaining < 4) {
      throw new DecodeError(
        'TRUNCATED',
        offset + position,
        `is truncated ${where(position)}: ${remaining} character(s) left where a field needs at least 5`,
      );
    }
    const id = take(position, position + 2);
    if (!TWO_DIGITS.test(id)) {
      throw new DecodeError('MALFORMED_ID', offset + position, `has a malformed id '${id}' ${where(position)}`);
    }
    const lengthText = take(position + 2, position + 4);
    if (!TWO_DIGITS.test(lengthText) || lengthText === '00') {
      throw new DecodeError(
        'MALFORMED_LENGTH',
        offset + position + 2,
        `has a malformed length '${lengthText}' ${where(position, id)}: expected 01 to 99`,
      );
    }
    const length = Number(lengthText);
    const start = position + 4;
    if (start + length > chars.length) {
      throw new DecodeError(
        'TRUNCATED',
        offset + start,
        `is truncated ${where(position, id)}: the field declares ${length} characters but ${chars.length - start} remain`,
      );
    }
    fields.push({ id, value: take(start, start + length) });
    position = start + length;
  }
  return fields;
}
