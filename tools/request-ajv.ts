/**
 * The AJV settings of request validation, in one place: tools/validators.ts generates the functions'
 * validators with them (and the benchmark's baseline compiles with them at run time). Loaded by
 * build tools only: the functions run the generated code, never AJV's compiler.
 */
import { Ajv, type Options } from 'ajv';
import addFormatsPlugin, { type FormatName } from 'ajv-formats';

/** Where a validator's input comes from: a JSON body, or a query string (strings, coerced). */
export type RequestPart = 'body' | 'query';

// ajv-formats is CommonJS: its default export arrives wrapped when imported from an ES module.
const addFormats = ((addFormatsPlugin as unknown as { default?: typeof addFormatsPlugin }).default ??
  addFormatsPlugin) as typeof addFormatsPlugin;

/** Every violation at once (a client fixes a request in one round trip); unknown keywords are errors. */
const AJV_OPTIONS: Record<RequestPart, Options> = {
  body: { allErrors: true, strict: true },
  // Query strings arrive as strings: numbers and booleans are coerced before the checks.
  query: { allErrors: true, strict: true, coerceTypes: true },
};

const FORMATS: Record<RequestPart, FormatName[]> = {
  body: ['email', 'date-time', 'date', 'uuid'],
  query: ['date-time', 'date', 'uuid'],
};

/** The AJV instance of a request part; `standalone` keeps the generated source for standaloneCode. */
export function requestAjv(part: RequestPart, standalone = false): Ajv {
  return addFormats(
    new Ajv({ ...AJV_OPTIONS[part], ...(standalone ? { code: { source: true, esm: true } } : {}) }),
    FORMATS[part],
  );
}
