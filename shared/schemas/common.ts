/** Building blocks shared by the request and response schemas. */
export const text = (maxLength: number, minLength = 1) =>
  // At least one visible character: a name of only spaces is as empty as no name.
  ({ type: 'string', minLength, maxLength, pattern: '\\S' }) as const;

export const digits = (length: number) => ({ type: 'string', pattern: `^[0-9]{${length}}$` }) as const;

export const NIT = digits(9);

/** Account numbers at the sponsor bank: digits only. */
export const ACCOUNT_NUMBER = { type: 'string', pattern: '^[0-9]{4,20}$' } as const;

/** A COP amount as a string with exactly two decimals, e.g. "15000.00". */
export const MONEY_VALUE = { type: 'string', pattern: '^(0|[1-9][0-9]{0,14})\\.[0-9]{2}$' } as const;

export const TIMESTAMP = { type: 'string', format: 'date-time' } as const;
export const UUID = { type: 'string', format: 'uuid' } as const;

/** The query string of a route that takes no parameter: any parameter is refused. */
export const emptyQuerySchema = { type: 'object', additionalProperties: false, properties: {} } as const;
