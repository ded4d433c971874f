/** Catching what a synchronous call throws, so a test can look at the error's fields. */
import { AppError } from '../../shared/domain/errors';

export function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('Expected the call to throw, but it returned normally');
}

/** The AppError a call throws; fails the test when it throws anything else or nothing. */
export function appErrorFrom(action: () => unknown): AppError {
  const error = thrownBy(action);
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}
