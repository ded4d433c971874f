/**
 * The AJV settings of request validation, in one place: tools/validators.ts generates the functions'
 * validators with them (and the benchmark's baseline compiles with them at run time). Loaded by
 * build tools only: the functions run the generated code, never AJV's compiler.
 */
import { Ajv, str, type AnySchemaObject, type CodeKeywordDefinition, type Options } from 'ajv';
import ajvPatternModule from 'ajv/dist/vocabularies/validation/pattern.js';
import addFormatsPlugin, { type FormatName } from 'ajv-formats';

/** Where a validator's input comes from: a JSON body, or a query string (strings, coerced). */
export type RequestPart = 'body' | 'query';

// ajv-formats is CommonJS: its default export arrives wrapped when imported from an ES module.
const addFormats = ((addFormatsPlugin as unknown as { default?: typeof addFormatsPlugin }).default ??
  addFormatsPlugin) as typeof addFormatsPlugin;

// AJV's own `pattern` keyword, CommonJS too.
const ajvPattern = ((ajvPatternModule as unknown as { default?: CodeKeywordDefinition }).default ??
  ajvPatternModule) as CodeKeywordDefinition;

/**
 * The schema keyword that says in words what a `pattern` expects, e.g. `must be 4 to 20 digits`: the
 * message a client reads, where AJV would say `must match pattern "^[0-9]{4,20}$"`.
 */
export const PATTERN_MESSAGE = 'patternMessage';

function patternMessageOf(schema: AnySchemaObject | undefined): string {
  const message: unknown = schema?.[PATTERN_MESSAGE];
  if (typeof message !== 'string' || message === '') {
    throw new Error(`The pattern ${JSON.stringify(schema?.['pattern'])} has no ${PATTERN_MESSAGE}`);
  }
  return message;
}

/**
 * AJV's `pattern`, checked as AJV checks it, whose error message is the schema's `patternMessage`. A
 * pattern without one does not compile: `npm run generate` names it. The message is part of the
 * generated code, so the functions need nothing at run time to tell it.
 */
const describedPattern: CodeKeywordDefinition = {
  ...ajvPattern,
  // Where AJV checks its own pattern among a string's keywords: the errors keep their order.
  before: 'format',
  error: { ...ajvPattern.error, message: ({ parentSchema }) => str`${patternMessageOf(parentSchema)}` },
  code(cxt) {
    patternMessageOf(cxt.parentSchema);
    ajvPattern.code(cxt);
  },
};

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

/**
 * The AJV instance of a request part; `standalone` keeps the generated source for standaloneCode, and
 * compiles each `$ref` as a call to its schema's one function (tools/shared-subschemas.ts).
 */
export function requestAjv(part: RequestPart, standalone = false): Ajv {
  return addFormats(
    new Ajv({ ...AJV_OPTIONS[part], ...(standalone ? { code: { source: true, esm: true }, inlineRefs: false } : {}) }),
    FORMATS[part],
  )
    .removeKeyword('pattern')
    .addKeyword(describedPattern)
    .addKeyword({ keyword: PATTERN_MESSAGE, schemaType: 'string', dependencies: ['pattern'] });
}
