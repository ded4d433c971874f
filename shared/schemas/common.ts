/**
 * Building blocks shared by the request and response schemas. Every `pattern` has a `patternMessage`:
 * the validation message a client reads when a value does not match (tools/request-ajv.ts).
 */
export const text = (maxLength: number, minLength = 1) =>
  // At least one visible character: a name of only spaces is as empty as no name.
  ({ type: 'string', minLength, maxLength, pattern: '\\S', patternMessage: 'must not be blank' }) as const;

export const digits = (length: number) =>
  ({ type: 'string', pattern: `^[0-9]{${length}}$`, patternMessage: `must be ${length} digits` }) as const;

export const NIT = digits(9);

/** Account numbers at the sponsor bank: digits only. */
export const ACCOUNT_NUMBER = {
  type: 'string',
  pattern: '^[0-9]{4,20}$',
  patternMessage: 'must be 4 to 20 digits',
} as const;

/** A COP amount as a string with exactly two decimals and up to `integerDigits` before the point. */
export const amountValue = (integerDigits: number) =>
  ({
    type: 'string',
    pattern: `^(0|[1-9][0-9]{0,${integerDigits - 1}})\\.[0-9]{2}$`,
    patternMessage: `must be an amount with two decimals and 1 to ${integerDigits} digits before the point, without leading zeros, e.g. 15000.00`,
  }) as const;

/** A COP amount as a string with exactly two decimals, e.g. "15000.00". */
export const MONEY_VALUE = amountValue(15);

export const TIMESTAMP = { type: 'string', format: 'date-time' } as const;
export const UUID = { type: 'string', format: 'uuid' } as const;

/** The query string of a route that takes no parameter: any parameter is refused. */
export const emptyQuerySchema = { type: 'object', additionalProperties: false, properties: {} } as const;
