/**
 * Request validation, reporting every violation with the field's dotted path, so a client fixes a
 * request in one round trip. The validators are AJV's standalone code, generated at build time from
 * the schemas of shared/schemas (tools/validators.ts): nothing compiles a schema at run time.
 */
import type { ErrorObject } from 'ajv';
import { AppError, type FieldError } from '../domain/errors';
import type { SchemaValidator } from '../schemas/validator';

export type { SchemaValidator };

export type JsonSchema = Record<string, unknown>;

const dotted = (pointer: string): string =>
  pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');

const join = (parent: string, child: string): string => (parent ? `${parent}.${child}` : child);

export function toFieldError(error: ErrorObject): FieldError {
  const at = dotted(error.instancePath);
  switch (error.keyword) {
    case 'required':
      return { field: join(at, String(error.params['missingProperty'])), message: 'is required' };
    case 'additionalProperties':
      return { field: join(at, String(error.params['additionalProperty'])), message: 'is not allowed' };
    case 'enum':
      return {
        field: at || '(body)',
        message: `must be one of ${(error.params['allowedValues'] as unknown[]).join(', ')}`,
      };
    case 'const':
      return { field: at || '(body)', message: `must be ${String(error.params['allowedValue'])}` };
    default:
      return { field: at || '(body)', message: error.message ?? 'is invalid' };
  }
}

export interface Validator<T> {
  (value: unknown): T;
}

function validatorOf<T>(validate: SchemaValidator<T, 'body' | 'query'>, what: 'body' | 'query string'): Validator<T> {
  return (value: unknown): T => {
    if (validate(value)) return value;
    const errors = (validate.errors ?? []).map(toFieldError);
    const unique = errors.filter(
      (e, i) => errors.findIndex((o) => o.field === e.field && o.message === e.message) === i,
    );
    throw invalidFields(what, unique);
  };
}

/** The refusal of a body or query string: every invalid field at once, so one round trip fixes them all. */
export const invalidFields = (what: 'body' | 'query string', errors: readonly FieldError[]): AppError =>
  new AppError('VALIDATION_FAILED', `The ${what} has ${errors.length} invalid field(s)`, { errors });

export const bodyValidator = <T>(validate: SchemaValidator<T, 'body'>): Validator<T> => validatorOf(validate, 'body');

export const queryValidator = <T>(validate: SchemaValidator<T, 'query'>): Validator<T> =>
  validatorOf(validate, 'query string');
