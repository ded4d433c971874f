/**
 * The type of a generated request validator (shared/schemas/generated/*.d.ts, written by
 * `npm run generate`). It lives with the schemas so the generated code depends on nothing above them.
 */
import type { ErrorObject } from 'ajv';

declare const requestPart: unique symbol;

/**
 * A generated validator of the JSON Schema of type T. `Part` says how it was compiled: `query`
 * validators coerce the strings of a query string (page_size=10 is the number 10), `body` validators
 * take JSON as it is; the type keeps one from standing in for the other.
 */
export interface SchemaValidator<T, Part extends 'body' | 'query'> {
  (data: unknown): data is T;
  errors?: ErrorObject[] | null;
  readonly [requestPart]?: Part;
}
