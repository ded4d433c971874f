/**
 * Building blocks shared by the request and response schemas. Every `pattern` has a `patternMessage`:
 * the validation message a client reads when a value does not match (tools/request-ajv.ts).
 *
 * The builders take `const` type parameters: what they return keeps the literal types of what they
 * are given, as `as const` would, so `FromSchema` derives from a built schema the type it derives
 * from the same schema written out. They are marked @__NO_SIDE_EFFECTS__ so that a bundle drops the
 * schemas it does not use (esbuild reads the mark within this module only; see lists.ts).
 */
import type { FromSchema } from 'json-schema-to-ts';

/** The subschemas of an object's properties, by property name. */
type Properties = Readonly<Record<string, object>>;

interface ClosedObject<P extends Properties> {
  readonly type: 'object';
  readonly additionalProperties: false;
  readonly properties: P;
}

/** An object with the given properties and no other; those named in `required` must be there. */
export function closedObject<const P extends Properties>(properties: P): ClosedObject<P>;
export function closedObject<const P extends Properties, const R extends readonly (keyof P & string)[]>(
  properties: P,
  required: R,
): ClosedObject<P> & { readonly required: R };
/* @__NO_SIDE_EFFECTS__ */
export function closedObject(properties: Properties, required?: readonly string[]) {
  // No `required` keyword where nothing is required, rather than an empty one.
  return required
    ? { type: 'object', additionalProperties: false, required, properties }
    : { type: 'object', additionalProperties: false, properties };
}

/** A closed object whose every property is required, in the order they are given. */
export const allRequired = /* @__NO_SIDE_EFFECTS__ */ <const P extends Properties>(properties: P) =>
  closedObject(properties, Object.keys(properties) as (keyof P & string)[]);

/** A string matching `pattern`; `patternMessage` says in words what it must be, e.g. `must be 4 digits`. */
export const matching = /* @__NO_SIDE_EFFECTS__ */ <const Pattern extends string, const Message extends string>(
  pattern: Pattern,
  patternMessage: Message,
) => ({ type: 'string', pattern, patternMessage }) as const;

export const text = /* @__NO_SIDE_EFFECTS__ */ (maxLength: number, minLength = 1) =>
  // At least one visible character: a name of only spaces is as empty as no name.
  ({ type: 'string', minLength, maxLength, pattern: '\\S', patternMessage: 'must not be blank' }) as const;

export const digits = /* @__NO_SIDE_EFFECTS__ */ (length: number) =>
  matching(`^[0-9]{${length}}$`, `must be ${length} digits`);

export const NIT = digits(9);

/** Account numbers at the sponsor bank: digits only. */
export const ACCOUNT_NUMBER = matching('^[0-9]{4,20}$', 'must be 4 to 20 digits');

/** A COP amount as a string with exactly two decimals and up to `integerDigits` before the point. */
export const amountValue = /* @__NO_SIDE_EFFECTS__ */ (integerDigits: number) =>
  matching(
    `^(0|[1-9][0-9]{0,${integerDigits - 1}})\\.[0-9]{2}$`,
    `must be an amount with two decimals and 1 to ${integerDigits} digits before the point, without leading zeros, e.g. 15000.00`,
  );

/** A COP amount as a string with exactly two decimals, e.g. "15000.00". */
export const MONEY_VALUE = amountValue(15);

/** The currency of every amount. */
export const COP = { type: 'string', const: 'COP' } as const;

/** An amount the API answers: COP, two decimals (balances, payments, QR code amounts). */
export const moneySchema = /* @__PURE__ */ allRequired({ currency: COP, value: MONEY_VALUE });

export const TIMESTAMP = { type: 'string', format: 'date-time' } as const;
export const UUID = { type: 'string', format: 'uuid' } as const;

/** When a record was created and last changed. */
export const TIMESTAMPS = { created_at: TIMESTAMP, updated_at: TIMESTAMP } as const;

/** The query string of a route that takes no parameter: any parameter is refused. */
export const emptyQuerySchema = closedObject({});

// Type-level check: a built schema keeps its literal types, so FromSchema reads it exactly (a builder
// without `const` type parameters would widen ['NIT'] to string[] and `kind` to string).
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const _built = closedObject({ kind: { type: 'string', enum: ['NIT'] }, number: NIT }, ['kind']);
const _checks: [Same<FromSchema<typeof _built>, { kind: 'NIT'; number?: string }>] = [true];
