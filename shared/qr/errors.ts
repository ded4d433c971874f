/**
 * What the QR library throws when its input cannot be written into a payload, or a payload cannot be
 * read. The library knows nothing of HTTP or of the API's error catalog: the domain turns these into
 * answers (shared/domain/qrcodes.ts), naming the same field with the same words.
 */
export class QrFieldError extends Error {
  constructor(
    /** The input member at fault, e.g. `merchant.name` or `qr_code_data`. */
    readonly field: string,
    /** What is wrong with it, e.g. `must not be empty`. */
    readonly problem: string,
  ) {
    super(`${field} ${problem}`);
    this.name = 'QrFieldError';
  }
}
