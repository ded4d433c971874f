/** Assertions on problem+json answers, shared by the HTTP suites. */
import type { ApiAnswer } from './local-api';

/**
 * The answer is a problem of this status and code, served as application/problem+json. `label`
 * names the case in a table-driven test, so a failure says which row it was.
 */
export function expectProblem(answer: ApiAnswer, status: number, code: string, label?: string): void {
  const seen = { status: answer.status, code: answer.body?.['code'] };
  expect(label === undefined ? seen : { label, ...seen }).toEqual(
    label === undefined ? { status, code } : { label, status, code },
  );
  expect(answer.headers.get('content-type')).toBe('application/problem+json');
}

/** The fields a validation problem names, sorted. */
export const fieldsOf = (answer: ApiAnswer): string[] =>
  ((answer.body?.['errors'] ?? []) as { field: string }[]).map((error) => error.field).sort();

/** 503 SERVICE_UNAVAILABLE with a Retry-After of at least a second: the answer to retry later. */
export function expectUnavailable(answer: ApiAnswer): void {
  expectProblem(answer, 503, 'SERVICE_UNAVAILABLE');
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
}
