/**
 * AJV compiles a subschema inline wherever it appears, and our schemas reuse theirs by value (a
 * participant, an amount, an owner's document are spread into many requests): a validator repeated
 * the same checks, with the same error objects, once per place. Here every subschema that appears
 * more than once in a schema (and is not trivial) is given an id and referred to by `$ref`; compiled
 * with `inlineRefs: false`, each becomes one function that every place calls. The checks, their order
 * and their errors are the same, but for `schemaPath`, which becomes the shared subschema's own.
 * Measured: every module's validators, minified, went from 493 to 384 KB; settlePayment's bundle (the
 * transfer order's two kinds share their parts) lost 28 KB.
 */

type Schema = Record<string, unknown>;

/** The keywords whose value is a map of subschemas, a list of them, or one. */
const SUBSCHEMA_MAPS = ['properties', 'patternProperties'] as const;
const SUBSCHEMA_LISTS = ['oneOf', 'anyOf', 'allOf', 'prefixItems'] as const;
const SUBSCHEMA_ONES = ['items', 'if', 'then', 'else', 'not', 'additionalProperties', 'contains', 'propertyNames'];

/** Below this many characters of JSON, a call costs about what the inline check does. */
export const SHARED_SUBSCHEMA_MIN_CHARS = 40;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether a subschema may become a call. AJV checks `uniqueItems` by a hash of the items when it
 * sees their scalar type, and by comparing each pair otherwise: an items schema behind a `$ref`
 * would report the pair the other way round, so it stays inline.
 */
const mayShare = (parent: Schema, keyword: string): boolean => !(keyword === 'items' && parent['uniqueItems']);

/** A copy of `schema` with each direct subschema passed through `map` (told whether it may be shared). */
function mapSubschemas(schema: Schema, map: (subschema: Schema, shareable: boolean) => Schema): Schema {
  const copy: Schema = { ...schema };
  for (const keyword of SUBSCHEMA_MAPS) {
    const value = copy[keyword];
    if (isSchema(value)) {
      copy[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, isSchema(sub) ? map(sub, true) : sub]),
      );
    }
  }
  for (const keyword of SUBSCHEMA_LISTS) {
    const value = copy[keyword];
    if (Array.isArray(value)) copy[keyword] = value.map((sub: unknown) => (isSchema(sub) ? map(sub, true) : sub));
  }
  for (const keyword of SUBSCHEMA_ONES) {
    const value = copy[keyword];
    if (isSchema(value)) copy[keyword] = map(value, mayShare(schema, keyword));
  }
  return copy;
}

export interface SharedSubschemas {
  /** The schemas as given, their repeated subschemas replaced by `{ $ref: id }`. */
  readonly roots: Record<string, Schema>;
  /** The repeated subschemas by id, themselves referring to those repeated inside them. */
  readonly shared: Record<string, Schema>;
}

/**
 * `schemas` (by name), each with every subschema that appears at least twice in it, and measures
 * `minChars` of JSON or more, moved to `shared` under the id `<name>-<n>` (but for mayShare's). Each
 * schema shares only within itself: a function imports one or two validators, and one that used a
 * subschema once would pay a call for a sharing it does not have.
 */
export function shareRepeatedSubschemas(
  schemas: Readonly<Record<string, Schema>>,
  minChars = SHARED_SUBSCHEMA_MIN_CHARS,
): SharedSubschemas {
  const roots: Record<string, Schema> = {};
  const shared: Record<string, Schema> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    const seen = new Map<string, number>();
    const count = (sub: Schema, shareable: boolean): Schema => {
      const json = JSON.stringify(sub);
      if (shareable && json.length >= minChars) seen.set(json, (seen.get(json) ?? 0) + 1);
      return mapSubschemas(sub, count);
    };
    mapSubschemas(schema, count);

    const idOf = new Map<string, string>();
    for (const [json, times] of seen) if (times > 1) idOf.set(json, `${name}-${idOf.size}`);

    const replace = (sub: Schema, shareable: boolean): Schema => {
      const id = shareable ? idOf.get(JSON.stringify(sub)) : undefined;
      if (id === undefined) return mapSubschemas(sub, replace);
      if (!(id in shared)) shared[id] = mapSubschemas(sub, replace);
      return { $ref: id };
    };
    roots[name] = mapSubschemas(schema, replace);
  }
  return { roots, shared };
}
