/** Every error code maps to one HTTP status, renders as problem+json, and is documented. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError, ERROR_CATALOG, invalidField, kindsOf, type ErrorCode } from '../../shared/domain/errors';
import { problemOf, statusOf } from '../../shared/http/problem';
import { REPO_ROOT } from '../../infra/paths';

const EXPECTED_STATUS: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  MERCHANT_NOT_APPROVED: 400,
  ACCOUNT_NOT_APPROVED: 400,
  CUSTOMER_INACTIVE: 400,
  ACCOUNT_INACTIVE: 400,
  AMOUNT_ABOVE_LIMIT: 400,
  INSUFFICIENT_FUNDS: 400,
  IDEMPOTENCY_KEY_REQUIRED: 400,
  UNAUTHORIZED: 401,
  NETWORK_SIGNATURE_INVALID: 401,
  TRANSFER_MISMATCH: 422,
  FORBIDDEN: 403,
  DOWNLOAD_URL_REFUSED: 403,
  INSUFFICIENT_SCOPE: 403,
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  KEY_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CUSTOMER_ALREADY_LINKED: 409,
  ACCOUNT_ALREADY_LINKED: 409,
  KEY_ALREADY_REGISTERED: 409,
  KEY_STATUS_CONFLICT: 409,
  QR_CODE_REFERENCE_TAKEN: 409,
  WEBHOOK_LIMIT_REACHED: 409,
  QR_CODE_STATUS_CONFLICT: 409,
  CONCURRENT_UPDATE: 409,
  WEBHOOK_DISABLED: 409,
  DELIVERY_IN_PROGRESS: 409,
  CREDIT_IN_PROGRESS: 409,
  END_TO_END_ID_REUSED: 409,
  REVERSAL_EXCEEDS_PAYMENT: 409,
  REVERSAL_ID_REUSED: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  IDEMPOTENCY_REQUEST_IN_PROGRESS: 409,
  RESOLUTION_ALREADY_USED: 409,
  RECIPIENT_KEY_CHANGED: 409,
  PAYMENT_NOT_REFUNDABLE: 409,
  REFUND_EXCEEDS_REMAINING: 409,
  REFUND_WINDOW_EXPIRED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  KEY_LOOKUPS_EXHAUSTED: 429,
  LOOKUP_LIMITED: 429,
  REPORTS_BUSY: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

/** The codes a rule raises as another kind too, and that kind's status: a refund's INSUFFICIENT_FUNDS. */
const OTHER_STATUS: Partial<Record<ErrorCode, number>> = {
  CUSTOMER_INACTIVE: 409,
  ACCOUNT_INACTIVE: 409,
  INSUFFICIENT_FUNDS: 409,
};

const codes = Object.keys(ERROR_CATALOG) as ErrorCode[];

describe('statusOf', () => {
  test('the expectations below cover exactly the catalog', () => {
    expect(Object.keys(EXPECTED_STATUS).sort()).toEqual([...codes].sort());
  });

  test.each(codes.map((code) => [code, EXPECTED_STATUS[code]] as const))('%s answers %d', (code, status) => {
    expect(statusOf(code)).toBe(status);
  });

  test.each(codes)('%s is UPPER_SNAKE and has a title', (code) => {
    expect(code).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
    expect(ERROR_CATALOG[code].title.length).toBeGreaterThan(0);
  });
});

describe('problemOf', () => {
  test('renders the RFC 9457 members, the code and the request id', () => {
    const problem = problemOf(new AppError('NOT_FOUND', 'Customer 42 does not exist'), 'req-1');
    expect(problem).toEqual({
      type: 'urn:breb:problem:not_found',
      title: ERROR_CATALOG.NOT_FOUND.title,
      status: 404,
      detail: 'Customer 42 does not exist',
      code: 'NOT_FOUND',
      request_id: 'req-1',
    });
  });

  test('adds the extensions: the customer id of a conflict', () => {
    const problem = problemOf(
      new AppError('CUSTOMER_ALREADY_LINKED', 'Already linked', { customer_id: 'c-1' }),
      'req-2',
    );
    expect(problem).toMatchObject({
      status: 409,
      code: 'CUSTOMER_ALREADY_LINKED',
      customer_id: 'c-1',
      request_id: 'req-2',
    });
    expect(problem.type).toBe('urn:breb:problem:customer_already_linked');
  });

  test('adds the field errors of a validation failure', () => {
    const problem = problemOf(invalidField('address.city', 'is required'), 'req-3');
    expect(problem).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      detail: 'address.city is required',
      errors: [{ field: 'address.city', message: 'is required' }],
    });
  });

  test('an extension cannot replace the request id', () => {
    const problem = problemOf(new AppError('INTERNAL_ERROR', 'x', { request_id: 'forged' }), 'req-4');
    expect(problem.request_id).toBe('req-4');
  });

  test.each(codes)('%s: the problem status is the code status', (code) => {
    expect(problemOf(new AppError(code, 'detail'), 'r').status).toBe(EXPECTED_STATUS[code]);
  });
});

describe('a code of two kinds', () => {
  test('only those named here have another kind', () => {
    expect(codes.filter((code) => kindsOf(code).length > 1)).toEqual(Object.keys(OTHER_STATUS));
  });

  test.each(Object.entries(OTHER_STATUS))('%s raised as its other kind answers %d', (code, status) => {
    const [own, other] = kindsOf(code as ErrorCode);
    const error = new AppError(code as ErrorCode, 'detail', {}, other);
    expect([error.kind, problemOf(error, 'r').status]).toEqual([other, status]);
    expect(problemOf(new AppError(code as ErrorCode, 'detail'), 'r').status).toBe(EXPECTED_STATUS[code as ErrorCode]);
    expect(own).toBe(ERROR_CATALOG[code as ErrorCode].kind);
  });

  test('no code is raised as a kind that is not its own', () => {
    expect(() => new AppError('AMOUNT_ABOVE_LIMIT', 'detail', {}, 'conflict')).toThrow(/not raised as conflict/);
  });
});

describe('AppError', () => {
  test('carries the kind of its code', () => {
    const error = new AppError('IDEMPOTENCY_KEY_REUSED', 'reused');
    expect(error).toBeInstanceOf(Error);
    expect(error.kind).toBe('conflict');
    expect(error.message).toBe('reused');
    expect(error.extensions).toEqual({});
  });
});

describe('docs/errors.md', () => {
  const file = join(REPO_ROOT, 'docs', 'errors.md');

  test('exists', () => {
    expect(existsSync(file)).toBe(true);
  });

  test('documents a code of two kinds under both statuses', () => {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    for (const [code, status] of Object.entries(OTHER_STATUS)) {
      for (const answered of [EXPECTED_STATUS[code as ErrorCode], status]) {
        expect(text).toContain(`| ${answered} | \`${code}\` |`);
      }
    }
  });

  test('documents every code of the catalog', () => {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    // Whole codes only: NOT_FOUND inside ROUTE_NOT_FOUND does not count.
    const undocumented = codes.filter((code) => !new RegExp(`(?<![A-Z_])${code}(?![A-Z_])`).test(text));
    expect(undocumented).toEqual([]);
  });
});
