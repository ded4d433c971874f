/**
 * The one error a QR payload decoder throws: a QrFieldError on `qr_code_data`, the request member of
 * the decode endpoint; `reason` and `position` are there for callers and tests that need to tell
 * failures apart.
 */
import { QrFieldError } from './errors';

export type DecodeErrorReason =
  'NOT_A_STRING' | 'EMPTY' | 'TOO_LONG' | 'MALFORMED_ID' | 'MALFORMED_LENGTH' | 'TRUNCATED';

/** The field name the error reports, the request member of the decode endpoint. */
export const PAYLOAD_FIELD = 'qr_code_data';

export class DecodeError extends QrFieldError {
  constructor(
    readonly reason: DecodeErrorReason,
    /** Character (code point) offset in the whole payload where the problem was found. */
    readonly position: number,
    message: string,
  ) {
    super(PAYLOAD_FIELD, message);
    this.name = 'DecodeError';
  }
}
