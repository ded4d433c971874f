/**
 * fast-check generators of hostile requests built from a valid sample: wrong types, missing and
 * extra fields, huge and empty strings, Unicode and control characters, numbers as strings and the
 * reverse, deep nesting, duplicate keys, invalid UTF-8, wrong content types, broken query strings
 * and path parameters. Each mutation keeps a label, so a failure reads as what was sent.
 */
import fc from 'fast-check';
import { pageQueryProperties } from '../../shared/schemas/lists';

type Json = unknown;
type Path = readonly (string | number)[];

export interface HostileRequest {
  readonly labels: readonly string[];
  readonly pathParameters: Readonly<Record<string, string>>;
  /** Already encoded, with its leading `?` (or empty). */
  readonly query: string;
  readonly body: Buffer | undefined;
  readonly contentType: string | undefined;
  readonly idempotencyKey: string | undefined;
}

/** Percent-encodes the UTF-8 bytes of a string (lone surrogates become U+FFFD, as on the wire). */
export const percentEncode = (text: string): string =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

const NASTY_STRINGS = [
  '\u0000',
  '\u202e\u0041',
  '\ud800',
  '\udfff\ud800',
  '𝕏𝕐',
  '👩‍👩‍👧‍👦',
  'Z̴̡̛͔a̷l̶g̵o̶',
  '../../etc/passwd',
  '%00',
  '${jndi:ldap://x/a}',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '{"$ne": null}',
  '__proto__',
  'constructor',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x10',
  ' ',
  '\t\r\n',
  'null',
  'true',
  ' 900123456',
  '900123456 ',
  '٩٠٠١٢٣٤٥٦',
  '９００１２３４５６',
  '+57 300 123 4567',
  'A'.repeat(101),
  'ñ'.repeat(141),
];

const controlCharacters = fc
  .array(fc.integer({ min: 0, max: 31 }), { minLength: 1, maxLength: 8 })
  .map((codes) => String.fromCharCode(...codes));

const hugeString = fc
  .tuple(fc.integer({ min: 200, max: 70_000 }), fc.constantFrom('x', '9', 'ñ', '𝕏', ' '))
  .map(([length, unit]) => unit.repeat(length));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constant(''),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  controlCharacters,
  hugeString,
  fc.constantFrom(...NASTY_STRINGS),
);

/** Arrays or objects nested `depth` deep. */
const nested = (depth: number, asObject: boolean): Json => {
  let value: Json = 1;
  for (let level = 0; level < depth; level += 1) value = asObject ? { a: value } : [value];
  return value;
};

export const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  { arbitrary: hostileString, weight: 4 },
  { arbitrary: fc.oneof(fc.integer(), fc.double(), fc.maxSafeInteger(), fc.constant(-0)), weight: 2 },
  { arbitrary: fc.oneof(fc.boolean(), fc.constant(null)), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
  // Deeper nesting is sent as text (see `encoding`): the generator's own recursion stays shallow.
  { arbitrary: fc.tuple(fc.integer({ min: 20, max: 200 }), fc.boolean()).map(([d, o]) => nested(d, o)), weight: 1 },
);

/** Every path of a JSON value: objects, arrays and leaves (the root excluded). */
function pathsOf(value: Json, prefix: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => [[...prefix, i], ...pathsOf(item, [...prefix, i])]);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value as Record<string, Json>).flatMap(([key, item]) => [
      [...prefix, key],
      ...pathsOf(item, [...prefix, key]),
    ]);
  }
  return [];
}

const clone = <T>(value: T): T => structuredClone(value);

function getAt(root: Json, path: Path): Json {
  return path.reduce<Json>((node, step) => (node as Record<string | number, Json>)?.[step], root);
}

/** Sets (or, with `remove`, deletes) the value at `path` of a copy of `root`. */
function setAt(root: Json, path: Path, value: Json, remove = false): Json {
  const copy = clone(root);
  const parent = getAt(copy, path.slice(0, -1)) as Record<string | number, Json>;
  // An earlier mutation may have turned the parent into a scalar: nothing to set any more.
  if (parent === null || typeof parent !== 'object') return root;
  const last = path[path.length - 1]!;
  if (remove) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else parent[last] = value;
  return copy;
}

const describePath = (path: Path): string => path.join('.') || '(root)';

/** Numbers become strings, digit strings numbers, strings arrays: the type a sloppy client sends. */
function retyped(value: Json): Json {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : [value];
  if (typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

type Mutation = { readonly label: string; readonly apply: (body: Json) => Json };

function bodyMutation(sample: Json): fc.Arbitrary<Mutation> {
  const paths = pathsOf(sample);
  const objectPaths: Path[] = [[], ...paths.filter((p) => typeof getAt(sample, p) === 'object' && getAt(sample, p))];
  const path = fc.constantFrom(...paths);
  return fc.oneof(
    fc.tuple(path, hostileValue).map(([at, value]): Mutation => ({
      label: `${describePath(at)} = ${JSON.stringify(value)?.slice(0, 60)}`,
      apply: (body) => (getAt(body, at.slice(0, -1)) === undefined ? body : setAt(body, at, value)),
    })),
    path.map((at): Mutation => ({
      label: `${describePath(at)} retyped`,
      apply: (body) => (getAt(body, at) === undefined ? body : setAt(body, at, retyped(getAt(body, at)))),
    })),
    path.map((at): Mutation => ({
      label: `${describePath(at)} removed`,
      apply: (body) => (getAt(body, at) === undefined ? body : setAt(body, at, undefined, true)),
    })),
    fc
      .tuple(
        fc.constantFrom(...objectPaths),
        fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor')),
        hostileValue,
      )
      .map(([at, key, value]): Mutation => ({
        label: `extra ${describePath([...at, key])}`,
        apply: (body) => {
          const target = at.length ? getAt(body, at) : body;
          if (target === null || typeof target !== 'object' || Array.isArray(target)) return body;
          const copy = clone(body);
          const node = (at.length ? getAt(copy, at) : copy) as Record<string, Json>;
          Object.defineProperty(node, key, { value, enumerable: true, configurable: true, writable: true });
          return copy;
        },
      })),
  );
}

/** How a (mutated) body goes on the wire: mostly JSON, sometimes broken in a way JSON cannot express. */
function encoding(sample: Json): fc.Arbitrary<{ label: string; encode: (body: Json) => Buffer | undefined }> {
  const json = (body: Json): string => JSON.stringify(body) ?? '';
  const topKeys = sample && typeof sample === 'object' && !Array.isArray(sample) ? Object.keys(sample) : ['x'];
  return fc.oneof(
    { arbitrary: fc.constant({ label: 'json', encode: (body: Json) => Buffer.from(json(body)) }), weight: 12 },
    {
      arbitrary: fc.tuple(fc.constantFrom(...topKeys), hostileValue, fc.boolean()).map(([key, value, first]) => ({
        label: `duplicate key ${key} (${first ? 'first' : 'last'})`,
        encode: (body: Json) => {
          const text = json(body);
          const extra = `${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}`;
          if (!text.startsWith('{') || text === '{}') return Buffer.from(`{${extra}}`);
          return Buffer.from(first ? `{${extra},${text.slice(1)}` : `${text.slice(0, -1)},${extra}}`);
        },
      })),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(fc.nat(), fc.constantFrom([0xc3, 0x28], [0xff], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf8, 0x88, 0x80]))
        .map(([position, bytes]) => ({
          label: `invalid UTF-8 ${bytes.map((b) => b.toString(16)).join(' ')}`,
          encode: (body: Json) => {
            const text = Buffer.from(json(body));
            // Inside a string when there is one: after an opening quote.
            const quotes = [...text.entries()].filter(([, byte]) => byte === 0x22).map(([i]) => i);
            const at = quotes.length ? quotes[position % quotes.length]! + 1 : position % (text.length + 1);
            return Buffer.concat([text.subarray(0, at), Buffer.from(bytes), text.subarray(at)]);
          },
        })),
      weight: 2,
    },
    {
      arbitrary: fc.nat().map((cut) => ({
        label: 'truncated JSON',
        encode: (body: Json) => {
          const text = json(body);
          return Buffer.from(text.slice(0, text.length ? cut % text.length : 0));
        },
      })),
      weight: 1,
    },
    {
      arbitrary: fc
        .constantFrom(
          '',
          '[]',
          'null',
          '42',
          '"text"',
          'true',
          '{}',
          '\ufeff{}',
          'a=1&b=2',
          '<xml/>',
          '{"a":1e400}',
          '{"a":-0}',
        )
        .map((text) => ({ label: `body ${JSON.stringify(text)}`, encode: () => Buffer.from(text) })),
      weight: 1,
    },
    {
      arbitrary: fc.constant({ label: 'JSON with a BOM', encode: (body: Json) => Buffer.from(`\ufeff${json(body)}`) }),
      weight: 1,
    },
    {
      // Up to the 64 KiB body limit: thousands of levels, far beyond any recursive parser's stack.
      arbitrary: fc
        .tuple(fc.constantFrom(...topKeys), fc.integer({ min: 1000, max: 32_000 }), fc.boolean())
        .map(([key, depth, asObject]) => ({
          label: `${key} nested ${depth} deep`,
          encode: () =>
            Buffer.from(
              `{${JSON.stringify(key)}:${asObject ? '{"a":'.repeat(depth) : '['.repeat(depth)}1${(asObject ? '}' : ']').repeat(depth)}}`,
            ),
        })),
      weight: 1,
    },
    { arbitrary: fc.constant({ label: 'no body', encode: () => undefined }), weight: 1 },
  );
}

const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 10 },
  {
    arbitrary: fc.constantFrom(
      undefined,
      '',
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'APPLICATION/JSON',
      'application/problem+json',
      'application/jsonx',
      'text/plain',
      'text/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/octet-stream',
      'image/png',
    ),
    weight: 3,
  },
);

/** Idempotency-Key values the API must refuse before doing anything (Node lets them through). */
const invalidIdempotencyKey = fc.constantFrom('', ' ', 'x'.repeat(256), 'with space', 'ñandú', 'tab\there');

const QUERY_NAMES = Object.keys(pageQueryProperties);

/** Query values in the forms clients get wrong: numbers written oddly, broken percent-encoding. */
const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  hostileString.map(percentEncode),
  fc.constantFrom('1e1', '0x10', '010', '1.0', '-1', '0', '101', '9999999999999999999999', '%20%31', '%EF%BC%91', '+1'),
  fc.constantFrom('%', '%zz', '%C3%28', '%FF', '%ED%A0%80', '%00', '+', '&', '=', '=='),
);

function queryMutation(base: Readonly<Record<string, string>>): fc.Arbitrary<{ label: string; query: string }> {
  const entries = Object.entries(base).map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`);
  const names = [...new Set([...Object.keys(base), ...QUERY_NAMES])];
  const join = (parts: readonly string[]): string => (parts.length ? `?${parts.join('&')}` : '');
  return fc.oneof(
    fc.tuple(fc.constantFrom(...names), hostileQueryValue).map(([name, value]) => ({
      label: `?${name}=${value.slice(0, 40)}`,
      query: join([...entries.filter((e) => !e.startsWith(`${name}=`)), `${name}=${value}`]),
    })),
    fc.tuple(fc.constantFrom(...names), hostileQueryValue, hostileQueryValue).map(([name, a, b]) => ({
      label: `?${name} twice`,
      query: join([...entries, `${name}=${a}`, `${name}=${b}`]),
    })),
    fc.tuple(hostileString, hostileQueryValue).map(([name, value]) => ({
      label: `unknown parameter ${name.slice(0, 20)}`,
      query: join([...entries, `${percentEncode(name) || 'x'}=${value}`]),
    })),
    fc
      .constantFrom('?', '?&&', '?=', '?=1', '?page_size', '?%zz=1', '?page_size=10&', `?${'a=1&'.repeat(300)}`)
      .map((query) => ({
        label: `query ${query.slice(0, 20)}`,
        query,
      })),
  );
}

/** Path parameter values a router and a repository must survive. */
const hostileId: fc.Arbitrary<{ label: string; encoded: string }> = fc.oneof(
  hostileString
    .filter((s) => s.length > 0)
    .map((s) => ({ label: `id ${JSON.stringify(s).slice(0, 40)}`, encoded: percentEncode(s) })),
  fc
    .constantFrom('%zz', '%C3%28', '%FF', '..', '.', '%2F', 'a%2Fb', '%2E%2E', '%00', '%20')
    .map((raw) => ({ label: `raw id ${raw}`, encoded: raw })),
  fc.uuid().map((uuid) => ({ label: 'unknown uuid (upper case)', encoded: uuid.toUpperCase() })),
  fc.integer({ min: 1025, max: 3000 }).map((n) => ({ label: `id of ${n} characters`, encoded: 'a'.repeat(n) })),
);

/** `arbitrary` `weight` times in `weight + otherwise`, else null. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, weight: number, otherwise: number): fc.Arbitrary<T | null> =>
  fc.oneof({ arbitrary, weight }, { arbitrary: fc.constant(null), weight: otherwise });

export interface SampleShape {
  readonly pathParameters?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: Readonly<Record<string, unknown>>;
}

/**
 * Hostile versions of a sample request: each changes the body, the query string, a path parameter
 * or the headers, or several at once; some inputs change nothing but the way the body is sent.
 */
export function hostileRequests(
  sample: SampleShape,
  options: { readonly post: boolean },
): fc.Arbitrary<HostileRequest> {
  const parameterNames = Object.keys(sample.pathParameters ?? {});
  const pathParameters = parameterNames.length
    ? sometimes(fc.tuple(fc.constantFrom(...parameterNames), hostileId), 1, 1)
    : fc.constant(null);
  const body = sample.body
    ? fc.tuple(fc.array(bodyMutation(sample.body), { minLength: 0, maxLength: 3 }), encoding(sample.body))
    : sometimes(fc.tuple(fc.constant([] as Mutation[]), encoding({ unexpected: 'body' })), 1, 2);
  // A list's query string is what it takes: mostly hostile there, now and then elsewhere.
  const query = sometimes(queryMutation(sample.query ?? {}), sample.query ? 4 : 1, sample.query ? 1 : 3);
  const idempotencyKey = options.post ? sometimes(invalidIdempotencyKey, 1, 7) : fc.constant(null);

  return fc.record({ pathParameters, body, query, contentType, idempotencyKey }).map((drawn) => {
    const labels: string[] = [];
    const parameters: Record<string, string> = Object.fromEntries(
      Object.entries(sample.pathParameters ?? {}).map(([name, value]) => [name, percentEncode(value)]),
    );
    if (drawn.pathParameters) {
      const [name, id] = drawn.pathParameters;
      parameters[name] = id.encoded;
      labels.push(id.label);
    }
    let encoded: Buffer | undefined;
    if (drawn.body) {
      const [mutations, { label, encode }] = drawn.body;
      const mutated = mutations.reduce<Json>(
        (value, mutation) => mutation.apply(value),
        sample.body ?? { unexpected: 'body' },
      );
      labels.push(...mutations.map((m) => m.label), label);
      encoded = encode(mutated);
    }
    if (drawn.query) labels.push(drawn.query.label);
    if (drawn.contentType !== 'application/json') labels.push(`content-type ${JSON.stringify(drawn.contentType)}`);
    if (drawn.idempotencyKey !== null) labels.push(`Idempotency-Key ${JSON.stringify(drawn.idempotencyKey)}`);
    const defaultQuery = sample.query ? `?${new URLSearchParams(sample.query).toString()}` : '';
    return {
      // fast-check prints this when an input fails: what was done, not kilobytes of bytes.
      [fc.toStringMethod]: () => labels.join('; '),
      labels,
      pathParameters: parameters,
      query: drawn.query ? drawn.query.query : defaultQuery,
      body: encoded,
      contentType: drawn.contentType,
      idempotencyKey: drawn.idempotencyKey ?? undefined,
    };
  });
}
