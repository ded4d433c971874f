/**
 * JSON Schema validation with AJV, reporting every violation with the field's dotted path, so a
 * client fixes a request in one round trip.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { AppError, type FieldError } from '../domain/errors';

export type JsonSchema = Record<string, unknown>;

// ajv-formats is CommonJS: its default export arrives wrapped when imported from an ES module.
const addFormats = ((addFormatsPlugin as unknown as { default?: typeof addFormatsPlugin }).default ??
  addFormatsPlugin) as typeof addFormatsPlugin;

const bodyAjv = addFormats(new Ajv({ allErrors: true, strict: true }), ['email', 'date-time', 'date', 'uuid']);
// Query strings arrive as strings: numbers and booleans are coerced before the checks.
const queryAjv = addFormats(new Ajv({ allErrors: true, strict: true, coerceTypes: true }), [
  'date-time',
  'date',
  'uuid',
]);

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

function validatorOf<T>(validate: ValidateFunction, what: string): Validator<T> {
  return (value: unknown): T => {
    if (validate(value)) return value as T;
    const errors = (validate.errors ?? []).map(toFieldError);
    const unique = errors.filter(
      (e, i) => errors.findIndex((o) => o.field === e.field && o.message === e.message) === i,
    );
    throw new AppError('VALIDATION_FAILED', `The ${what} has ${unique.length} invalid field(s)`, { errors: unique });
  };
}

export const bodyValidator = <T>(schema: JsonSchema): Validator<T> => validatorOf<T>(bodyAjv.compile(schema), 'body');

export const queryValidator = <T>(schema: JsonSchema): Validator<T> =>
  validatorOf<T>(queryAjv.compile(schema), 'query string');
