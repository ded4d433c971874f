/**
 * HTTP Message Signatures (RFC 9421) with Ed25519, over a body bound by its Content-Digest (RFC 9530):
 * how the bank and we sign the requests we send each other. One profile, fixed on both sides: label
 * `sig1`, covering `"@method" "@target-uri" "content-digest" "content-type"`, with `created`, `keyid`,
 * `nonce` and `alg="ed25519"`. Public keys travel as a JWKS, so a rotation publishes two keys at once.
 * The structured-field parser reads only what this profile uses (strings, integers, byte sequences,
 * inner lists, parameters) and refuses the rest, so nothing we did not check can ride along.
 */
import type { KeyObject } from 'node:crypto';
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';

export const SIGNATURE_LABEL = 'sig1';
/** A request created further from now than this, either way, is refused: a captured one cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
export const COVERED_COMPONENTS = ['@method', '@target-uri', 'content-digest', 'content-type'] as const;
const ALG = 'ed25519';
const PARAM_NAMES = ['created', 'keyid', 'nonce', 'alg'];
/** keyid and nonce: short, printable, nothing a structured-field string would have to escape. */
const TOKEN = /^[A-Za-z0-9_.:-]{1,128}$/;

export interface Jwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg?: 'EdDSA';
  use?: 'sig';
}
export interface Jwks {
  keys: Jwk[];
}
export interface SigningKey {
  readonly kid: string;
  readonly privateKeyPem: string;
}
export interface SignedRequest {
  method: string;
  targetUri: string;
  contentType: string;
  body: string;
}
export type SignedHeaders = Record<'content-digest' | 'signature-input' | 'signature', string>;
export type SignatureVerdict =
  { valid: true; keyid: string; nonce: string; created: number } | { valid: false; reason: string };

/** Why a request is refused; caught by verifyRequest, never seen outside. */
class Refusal extends Error {}
function refuse(reason: string): never {
  throw new Refusal(reason);
}

// RFC 8941, the part these headers use. Parameters keep their order: @signature-params is rebuilt from them.
type Bare = string | number | Buffer;
type Params = [string, Bare][];
type Member = { value: Bare; params: Params } | { items: { value: Bare; params: Params }[]; params: Params };

const KEY = /[a-z*][a-z0-9_.*-]*/y;
const INTEGER = /-?\d{1,15}(?![\d.])/y; // decimals are no part of these headers
const STRING = /"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*"/y;
const BYTES = /:[A-Za-z0-9+/]*={0,2}:/y;
const unescape = (quoted: string) => quoted.slice(1, -1).replace(/\\(["\\])/g, '$1');

/** A dictionary field. Duplicate keys are refused rather than merged (RFC 8941 keeps the last): no ambiguity. */
function parseDictionary(name: string, field: string): Map<string, Member> {
  const text = field.replace(/^ +| +$/g, '');
  let at = 0;
  const fail = (what: string): never => refuse(`${name} is malformed: ${what} at character ${at}`);
  const take = (pattern: RegExp, what: string): string => {
    pattern.lastIndex = at;
    const match = pattern.exec(text)?.[0] ?? fail(`expected ${what}`);
    at += match.length;
    return match;
  };
  const skip = (chars: string) => {
    while (at < text.length && chars.includes(text[at]!)) at++;
  };
  const bare = (): Bare => {
    const first = text[at] ?? '';
    if (first === '"') return unescape(take(STRING, 'a string'));
    if (first === ':') return Buffer.from(take(BYTES, 'a byte sequence').slice(1, -1), 'base64');
    if (/[-\d]/.test(first)) return Number(take(INTEGER, 'an integer'));
    return fail('expected a string, an integer or a byte sequence');
  };
  const params = (): Params => {
    const list: Params = [];
    while (text[at] === ';') {
      at++;
      skip(' ');
      const key = take(KEY, 'a parameter name');
      if (list.some(([seen]) => seen === key)) fail(`parameter ${key} twice`);
      if (text[at++] !== '=') fail(`parameter ${key} without a value`);
      list.push([key, bare()]);
    }
    return list;
  };
  const innerList = (): Member => {
    const items: { value: Bare; params: Params }[] = [];
    at++;
    for (;;) {
      skip(' ');
      if (text[at] === ')') {
        at++;
        return { items, params: params() };
      }
      items.push({ value: bare(), params: params() });
      if (text[at] !== ' ' && text[at] !== ')') fail('expected a space or ) in an inner list');
    }
  };
  const members = new Map<string, Member>();
  while (at < text.length) {
    const key = take(KEY, 'a member name');
    if (members.has(key)) fail(`member ${key} twice`);
    if (text[at++] !== '=') fail(`member ${key} without a value`);
    members.set(key, text[at] === '(' ? innerList() : { value: bare(), params: params() });
    skip(' \t');
    if (at === text.length) break;
    if (text[at++] !== ',') fail('expected a comma');
    skip(' \t');
    if (at === text.length) fail('a trailing comma');
  }
  return members;
}

function serializeBare(value: string | number): string {
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || Math.abs(value) > 999_999_999_999_999) throw new Error(`${value} is no sf-integer`);
    return String(value);
  }
  if (!/^[\x20-\x7e]*$/.test(value)) throw new Error('An sf-string holds printable ASCII only');
  return `"${value.replace(/[\\"]/g, '\\$&')}"`;
}

/** The inner list with its parameters: the Signature-Input member's value and the @signature-params line. */
export function signatureParams(
  components: readonly string[],
  params: ReadonlyArray<readonly [string, string | number]>,
): string {
  const list = components.map(serializeBare).join(' ');
  return `(${list})${params.map(([name, value]) => `;${name}=${serializeBare(value)}`).join('')}`;
}

/** The signature base (RFC 9421 §2.5): one `"name": value` line per component, then @signature-params; no final newline. */
export function signatureBase(components: ReadonlyArray<readonly [string, string]>, params: string): string {
  const lines = [...components, ['@signature-params', params] as const].map(([name, value]) => {
    // A line break in a value would let it forge the lines after it.
    if (/[\r\n]/.test(value)) refuse(`the value of ${name} holds a line break`);
    return `"${name}": ${value}`;
  });
  return lines.join('\n');
}

function ed25519PrivateKey(pem: string): KeyObject {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('The signing key is not an Ed25519 key');
  return key;
}

export function ed25519Sign(base: string, privateKeyPem: string): Buffer {
  return sign(null, Buffer.from(base, 'utf8'), ed25519PrivateKey(privateKeyPem));
}

export function ed25519Verify(base: string, signature: Buffer, key: Jwk): boolean {
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.x }, format: 'jwk' });
  return signature.length === 64 && verify(null, Buffer.from(base, 'utf8'), publicKey, signature);
}

/** `sha-256=:<base64>:` of the body's bytes (a string counts as its UTF-8). */
export function contentDigest(body: string | Buffer): string {
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}

function coveredValues(method: string, targetUri: string, digest: string, contentType: string): [string, string][] {
  const values = [method.toUpperCase(), targetUri, digest, contentType];
  return COVERED_COMPONENTS.map((name, index) => [name, values[index]!]);
}

/** The headers to add to a request: its Content-Digest, and the signature over it and the rest. */
export function signRequest(
  request: SignedRequest,
  key: SigningKey,
  { created, nonce }: { created: number; nonce: string },
): SignedHeaders {
  if (!Number.isSafeInteger(created) || created < 0) throw new Error('created is Unix seconds');
  if (!TOKEN.test(key.kid) || !TOKEN.test(nonce)) throw new Error('keyid and nonce are 1-128 of [A-Za-z0-9_.:-]');
  const digest = contentDigest(request.body);
  const params = signatureParams(COVERED_COMPONENTS, [
    ['created', created],
    ['keyid', key.kid],
    ['nonce', nonce],
    ['alg', ALG],
  ]);
  const base = signatureBase(coveredValues(request.method, request.targetUri, digest, request.contentType), params);
  const signature = ed25519Sign(base, key.privateKeyPem).toString('base64');
  return {
    'content-digest': digest,
    'signature-input': `${SIGNATURE_LABEL}=${params}`,
    signature: `${SIGNATURE_LABEL}=:${signature}:`,
  };
}

function onlyLabel(name: string, members: Map<string, Member>): Member {
  const member = members.get(SIGNATURE_LABEL);
  if (!member || members.size !== 1) {
    refuse(
      `${name} must hold one signature labelled ${SIGNATURE_LABEL}, not: ${[...members.keys()].join(', ') || 'none'}`,
    );
  }
  return member;
}

/** The profile's parameters, all four and nothing else (an `expires` we ignored would be a promise not kept). */
function checkedParams(params: Params) {
  const unknown = params.find(([name]) => !PARAM_NAMES.includes(name));
  if (unknown) refuse(`signature-input has an unexpected parameter ${unknown[0]}`);
  const value = (name: string) => params.find(([key]) => key === name)?.[1];
  const [created, keyid, nonce] = [value('created'), value('keyid'), value('nonce')];
  if (typeof created !== 'number') refuse('signature-input needs created, an integer');
  if (typeof keyid !== 'string' || !TOKEN.test(keyid)) refuse('signature-input needs keyid, 1-128 of [A-Za-z0-9_.:-]');
  if (typeof nonce !== 'string' || !TOKEN.test(nonce)) refuse('signature-input needs nonce, 1-128 of [A-Za-z0-9_.:-]');
  if (value('alg') !== ALG) refuse(`signature-input needs alg="${ALG}"`);
  return { created, keyid, nonce, list: params as [string, string | number][] };
}

function coveredNames(member: Member): string[] {
  if (!('items' in member)) refuse(`signature-input ${SIGNATURE_LABEL} is not an inner list`);
  const names = member.items.map((item) => (typeof item.value === 'string' && !item.params.length ? item.value : ''));
  if (names.join(' ') !== COVERED_COMPONENTS.join(' '))
    refuse(`covered components must be exactly ${signatureParams(COVERED_COMPONENTS, [])}`);
  return names;
}

function checkDigest(field: string, body: string): void {
  const members = parseDictionary('content-digest', field);
  const sha256 = members.get('sha-256');
  if (members.size !== 1 || !sha256 || !('value' in sha256) || !Buffer.isBuffer(sha256.value) || sha256.params.length) {
    refuse('content-digest must hold exactly one sha-256 byte sequence');
  }
  if (!createHash('sha256').update(body).digest().equals(sha256.value))
    refuse('content-digest does not match the body');
}

function signatureBytes(field: string): Buffer {
  const member = onlyLabel('signature', parseDictionary('signature', field));
  if ('items' in member || !Buffer.isBuffer(member.value) || member.params.length) {
    refuse(`signature ${SIGNATURE_LABEL} is not a byte sequence`);
  }
  return member.value;
}

function check(
  request: Parameters<typeof verifyRequest>[0],
  keys: Jwks,
  nowSeconds: number,
): SignatureVerdict & { valid: true } {
  const header = (name: string) => request.headers[name]?.trim() || refuse(`the ${name} header is missing`);
  const [input, signature] = [header('signature-input'), header('signature')];
  const [digest, contentType] = [header('content-digest'), header('content-type')];
  const member = onlyLabel('signature-input', parseDictionary('signature-input', input));
  const names = coveredNames(member);
  const { created, keyid, nonce, list } = checkedParams(member.params);
  if (Math.abs(nowSeconds - created) > SIGNATURE_TOLERANCE_SECONDS) {
    refuse(`created is more than ${SIGNATURE_TOLERANCE_SECONDS} s away from now`);
  }
  const key = keys.keys.find((candidate) => candidate.kid === keyid) ?? refuse(`unknown keyid ${keyid}`);
  checkDigest(digest, request.body);
  const bytes = signatureBytes(signature);
  const base = signatureBase(
    coveredValues(request.method, request.targetUri, digest, contentType),
    signatureParams(names, list),
  );
  if (!ed25519Verify(base, bytes, key)) refuse('the signature does not verify');
  return { valid: true, keyid, nonce, created };
}

/** Checks a signed request against the keys published now; headers by lower-case name, as Node and API Gateway give them. */
export function verifyRequest(
  request: { method: string; targetUri: string; headers: Readonly<Record<string, string | undefined>>; body: string },
  keys: Jwks,
  nowSeconds: number,
): SignatureVerdict {
  try {
    return check(request, keys, nowSeconds);
  } catch (error) {
    if (error instanceof Refusal) return { valid: false, reason: error.message };
    throw error;
  }
}

/** A JWKS of Ed25519 public keys with distinct kids; anything else, or a private `d`, is a clear Error. */
export function parseJwks(text: string): Jwks {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('The JWKS is not JSON');
  }
  const keys = typeof parsed === 'object' && parsed !== null ? (parsed as { keys?: unknown }).keys : undefined;
  if (!Array.isArray(keys) || keys.length === 0) throw new Error('A JWKS is an object with a non-empty "keys" array');
  const jwks = { keys: keys.map(parseJwk) };
  const kids = jwks.keys.map((key) => key.kid);
  if (new Set(kids).size !== kids.length)
    throw new Error('The JWKS holds a kid twice: which key verifies would be a guess');
  return jwks;
}

/** x must be canonical: 32 bytes whose base64url is exactly x, so one key has one spelling. */
const isPublicX = (x: unknown) =>
  typeof x === 'string' && Buffer.from(x, 'base64url').toString('base64url') === x && x.length === 43;

function jwkProblem(key: Record<string, unknown>): string | undefined {
  if ('d' in key) return 'carries a private key (d): publish only the public half';
  if (key.kty !== 'OKP' || key.crv !== 'Ed25519') return 'is not an Ed25519 key (kty OKP, crv Ed25519)';
  if (typeof key.kid !== 'string' || !TOKEN.test(key.kid)) return 'needs a kid of 1-128 [A-Za-z0-9_.:-]';
  if (!isPublicX(key.x)) return 'needs x, 32 bytes in unpadded base64url';
  if (key.alg !== undefined && key.alg !== 'EdDSA') return 'has an alg other than EdDSA';
  if (key.use !== undefined && key.use !== 'sig') return 'has a use other than sig';
  return undefined;
}

function parseJwk(value: unknown, index: number): Jwk {
  const key = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const problem = jwkProblem(key);
  if (problem) throw new Error(`JWKS key ${index} ${problem}`);
  return { kty: 'OKP', crv: 'Ed25519', x: key.x as string, kid: key.kid as string, alg: 'EdDSA', use: 'sig' };
}

/** The public half of a PKCS#8 Ed25519 key, as the JWK we publish. */
export function publicJwk(privateKeyPem: string, kid: string): Jwk {
  const { x } = createPublicKey(ed25519PrivateKey(privateKeyPem)).export({ format: 'jwk' });
  return { kty: 'OKP', crv: 'Ed25519', x: x!, kid, alg: 'EdDSA', use: 'sig' };
}

/** A signing key from a private JWK (`d`); Node refuses one whose `x` is not the public half of `d`. */
export function signingKeyFromJwk(jwk: Jwk & { d: string }): SigningKey {
  const key = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x, d: jwk.d }, format: 'jwk' });
  return { kid: jwk.kid, privateKeyPem: key.export({ type: 'pkcs8', format: 'pem' }) as string };
}

/** A fresh Ed25519 key: for tests, the fake bank and a first deploy. */
export function generateSigningKey(kid: string): SigningKey {
  const { privateKey } = generateKeyPairSync('ed25519');
  return { kid, privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string };
}
