/**
 * The one error a QR payload decoder throws. It is a VALIDATION_FAILED AppError, so a decode endpoint
 * that lets it through answers 400 with the message under `qr_code_data`; `reason` and `position`
 * are there for callers and tests that need to tell failures apart.
 */
import { AppError } from '../domain/errors';

export type DecodeErrorReason =
  'NOT_A_STRING' | 'EMPTY' | 'TOO_LONG' | 'MALFORMED_ID' | 'MALFORMED_LENGTH' | 'TRUNCATED';

/** The field name the error reports, the request member of the decode endpoint. */
export const PAYLOAD_FIELD = 'qr_code_data';

export class DecodeError extends AppError {
  constructor(
    readonly reason: DecodeErrorReason,
    /** Character (code point) offset in the whole payload where the problem was found. */
    readonly position: number,
    message: string,
  ) {
    super('VALIDATION_FAILED', `${PAYLOAD_FIELD} ${message}`, {
      errors: [{ field: PAYLOAD_FIELD, message }],
    });
    this.name = 'DecodeError';
  }
}
