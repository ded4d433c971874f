/**
 * Query-string schemas of the GET lists (spec 4.3, docs/pagination.md). Query values arrive as
 * strings; AJV coerces the numeric ones. Shapes are checked here, meanings (real dates, ordered
 * bounds, a snapshot not in the future) by shared/domain/lists.ts.
 */
/** The page-size and page-number bounds (docs/pagination.md); shared/domain/lists.ts reads them too. */
export const MAX_PAGE_SIZE = 100;
export const MAX_PAGE_NUMBER = 1_000_000_000;

/** `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SSZ`, or with milliseconds as the API writes its own timestamps. */
export const DATE_OR_TIMESTAMP = {
  type: 'string',
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,3})?Z)?$',
  patternMessage: 'must be a date, YYYY-MM-DD, or a UTC timestamp, YYYY-MM-DDTHH:MM:SSZ',
} as const;

export const UTC_TIMESTAMP = {
  type: 'string',
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,3})?Z$',
  patternMessage: 'must be a UTC timestamp, YYYY-MM-DDTHH:MM:SSZ (with or without milliseconds)',
} as const;

/** A customer status in any case (the spec's examples write it in lower case). */
export const CUSTOMER_STATUS_FILTER = {
  type: 'string',
  pattern: '^([aA][cC][tT][iI][vV][eE]|[iI][nN][aA][cC][tT][iI][vV][eE])$',
  patternMessage: 'must be ACTIVE or INACTIVE, in any letter case',
} as const;

/**
 * A mobile number in any of the accepted forms. A `+` sent unencoded in a query string arrives as a
 * space, so a leading space is read as `+`.
 */
export const MOBILE_FILTER = {
  type: 'string',
  pattern: '^[+ ]?[0-9]{7,15}$',
  patternMessage: 'must be 7 to 15 digits, with or without a leading +',
} as const;

/** The parameters every list takes: paging, order, snapshot and the date filters. */
export const pageQueryProperties = {
  page_size: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE },
  page_number: { type: 'integer', minimum: 1, maximum: MAX_PAGE_NUMBER },
  order_key: { type: 'string', enum: ['created_at', 'updated_at'] },
  order_direction: {
    type: 'string',
    pattern: '^([aA][sS][cC]|[dD][eE][sS][cC])$',
    patternMessage: 'must be asc or desc, in any letter case',
  },
  first_request_timestamp: UTC_TIMESTAMP,
  created_at: DATE_OR_TIMESTAMP,
  created_from: DATE_OR_TIMESTAMP,
  created_to: DATE_OR_TIMESTAMP,
  updated_at: DATE_OR_TIMESTAMP,
  updated_from: DATE_OR_TIMESTAMP,
  updated_to: DATE_OR_TIMESTAMP,
} as const;

export const paginationInfoSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['total_elements', 'total_pages', 'current_page', 'first_request_timestamp'],
  properties: {
    total_elements: { type: 'integer', minimum: 0 },
    total_pages: { type: 'integer', minimum: 0 },
    current_page: { type: 'integer', minimum: 1 },
    first_request_timestamp: { type: 'string', format: 'date-time' },
  },
} as const;
