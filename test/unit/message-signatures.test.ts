/**
 * RFC 9421 message signatures with Ed25519 over an RFC 9530 Content-Digest
 * (shared/domain/message-signatures.ts): the RFC's own Ed25519 example (Appendix B.2.6) byte for byte,
 * a round trip, and each refusal named by the check that made it. Refusals of the profile's rules are
 * made with signatures that do verify over what they cover, so only the rule can be what refuses them.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import {
  COVERED_COMPONENTS,
  contentDigest,
  ed25519Sign,
  ed25519Verify,
  generateSigningKey,
  parseJwks,
  publicJwk,
  SIGNATURE_LABEL,
  SIGNATURE_TOLERANCE_SECONDS,
  signatureBase,
  signatureParams,
  signingKeyFromJwk,
  signRequest,
  verifyRequest,
} from '../../shared/domain/message-signatures';
import type { Jwks, SignatureVerdict, SigningKey } from '../../shared/domain/message-signatures';

// RFC 9421 Appendix B.1.4, test-key-ed25519: PKCS#8 / SPKI PEM and the JWK form of the same key.
const RFC_PRIVATE_PEM = [
  '-----BEGIN PRIVATE KEY-----',
  'MC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF',
  '-----END PRIVATE KEY-----',
  '',
].join('\n');
const RFC_PUBLIC_PEM = [
  '-----BEGIN PUBLIC KEY-----',
  'MCowBQYDK2VwAyEAJrQLj5P/89iXES9+vFgrIy29clF9CC/oPPsw3c5D0bs=',
  '-----END PUBLIC KEY-----',
  '',
].join('\n');
const RFC_X = 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs';
const RFC_D = 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU';
const RFC_KID = 'test-key-ed25519';

// RFC 9421 Appendix B.2.6, "Signing a Request Using ed25519" (lines the RFC wraps per RFC 8792 joined).
const B26_COMPONENTS: [string, string][] = [
  ['date', 'Tue, 20 Apr 2021 02:07:55 GMT'],
  ['@method', 'POST'],
  ['@path', '/foo'],
  ['@authority', 'example.com'],
  ['content-type', 'application/json'],
  ['content-length', '18'],
];
const B26_SIGNATURE_INPUT =
  'sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"';
const B26_SIGNATURE =
  'sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:';
const B26_BASE = [
  '"date": Tue, 20 Apr 2021 02:07:55 GMT',
  '"@method": POST',
  '"@path": /foo',
  '"@authority": example.com',
  '"content-type": application/json',
  '"content-length": 18',
  '"@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
].join('\n');

const NOW = 1_700_000_000;
const KEY = generateSigningKey('k1');
const JWKS: Jwks = { keys: [publicJwk(KEY.privateKeyPem, 'k1')] };
const REQUEST = {
  method: 'POST',
  targetUri: 'https://bank.example.com/v1/transfers?page=2',
  contentType: 'application/json',
  body: JSON.stringify({ amount: { value: '12500.00', currency: 'COP' }, note: 'café ☕ 𝄞' }),
};
const PARAMS: [string, string | number][] = [
  ['created', NOW],
  ['keyid', 'k1'],
  ['nonce', 'n-1'],
  ['alg', 'ed25519'],
];
const INPUT = signatureParams(COVERED_COMPONENTS, PARAMS);

type Received = Parameters<typeof verifyRequest>[0];

/** A request as the receiver sees it: signed by `key`, headers by lower-case name. */
function signed(key: SigningKey = KEY, created = NOW, request = REQUEST): Received {
  const headers = signRequest(request, key, { created, nonce: 'n-1' });
  return { ...request, headers: { ...headers, 'content-type': request.contentType } };
}

/** The same request with some headers replaced (undefined removes one). */
function withHeaders(received: Received, headers: Record<string, string | undefined>): Received {
  return { ...received, headers: { ...received.headers, ...headers } };
}

/**
 * A request whose signature is made by KEY over whatever components and parameters are given, under any
 * label: it verifies cryptographically, so a refusal can only come from the profile's rules.
 */
function forged(components: readonly string[], params = PARAMS, label = SIGNATURE_LABEL): Received {
  const digest = contentDigest(REQUEST.body);
  const values: Record<string, string> = {
    '@method': REQUEST.method,
    '@target-uri': REQUEST.targetUri,
    'content-digest': digest,
    'content-type': REQUEST.contentType,
    'content-length': String(Buffer.byteLength(REQUEST.body)),
  };
  const input = signatureParams(components, params);
  const base = signatureBase(
    components.map((name) => [name, values[name]!]),
    input,
  );
  const signature = ed25519Sign(base, KEY.privateKeyPem).toString('base64');
  return {
    ...REQUEST,
    headers: {
      'content-type': REQUEST.contentType,
      'content-digest': digest,
      'content-length': values['content-length'],
      'signature-input': `${label}=${input}`,
      signature: `${label}=:${signature}:`,
    },
  };
}

const verdict = (received: Received, keys: Jwks = JWKS, now = NOW): SignatureVerdict =>
  verifyRequest(received, keys, now);
const refusal = (reason: RegExp) => ({ valid: false, reason: expect.stringMatching(reason) });
const VALID = { valid: true, keyid: 'k1', nonce: 'n-1', created: NOW };

describe('RFC 9421 Appendix B.2.6, signing a request using ed25519', () => {
  test('the B.1.4 test key: PEM, JWK and our publicJwk / signingKeyFromJwk agree on it', () => {
    expect(publicJwk(RFC_PRIVATE_PEM, RFC_KID)).toEqual({
      kty: 'OKP',
      crv: 'Ed25519',
      x: RFC_X,
      kid: RFC_KID,
      alg: 'EdDSA',
      use: 'sig',
    });
    expect(createPublicKey(RFC_PRIVATE_PEM).export({ type: 'spki', format: 'pem' })).toBe(RFC_PUBLIC_PEM);
    const fromJwk = signingKeyFromJwk({ kty: 'OKP', crv: 'Ed25519', x: RFC_X, d: RFC_D, kid: RFC_KID });
    expect(fromJwk).toEqual({ kid: RFC_KID, privateKeyPem: RFC_PRIVATE_PEM });
  });

  test('the Signature-Input, the signature base and the signature come out byte for byte', () => {
    const input = signatureParams(
      B26_COMPONENTS.map(([name]) => name),
      [
        ['created', 1618884473],
        ['keyid', RFC_KID],
      ],
    );
    expect(`sig-b26=${input}`).toBe(B26_SIGNATURE_INPUT);
    const base = signatureBase(B26_COMPONENTS, input);
    expect(base).toBe(B26_BASE);
    expect(`sig-b26=:${ed25519Sign(base, RFC_PRIVATE_PEM).toString('base64')}:`).toBe(B26_SIGNATURE);
  });

  test('the RFC signature verifies under the RFC public JWK; a flipped bit or another base does not', () => {
    const jwk = { kty: 'OKP', crv: 'Ed25519', x: RFC_X, kid: RFC_KID } as const;
    const signature = Buffer.from(B26_SIGNATURE.slice('sig-b26=:'.length, -1), 'base64');
    expect(ed25519Verify(B26_BASE, signature, jwk)).toBe(true);
    const flipped = Buffer.from(signature);
    flipped[10]! ^= 1;
    expect(ed25519Verify(B26_BASE, flipped, jwk)).toBe(false);
    expect(ed25519Verify(B26_BASE.replace('/foo', '/bar'), signature, jwk)).toBe(false);
    expect(ed25519Verify(B26_BASE, signature.subarray(0, 63), jwk)).toBe(false);
  });
});

describe('contentDigest (RFC 9530)', () => {
  test('the RFC 9530 example and the empty body', () => {
    expect(contentDigest('{"hello": "world"}\n')).toBe('sha-256=:RK/0qy18MlBSVnWgjwz6lZEWjP/lF5HF9bvEF8FabDg=:');
    expect(contentDigest('')).toBe('sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:');
  });

  test('a string is digested as its UTF-8 bytes', () => {
    expect(contentDigest(REQUEST.body)).toBe(contentDigest(Buffer.from(REQUEST.body, 'utf8')));
    expect(contentDigest('é')).not.toBe(contentDigest(Buffer.from('é', 'latin1')));
  });
});

describe('signRequest', () => {
  test('adds the three headers of the profile', () => {
    const headers = signRequest(REQUEST, KEY, { created: NOW, nonce: 'n-1' });
    expect(Object.keys(headers).sort()).toEqual(['content-digest', 'signature', 'signature-input']);
    expect(headers['content-digest']).toBe(contentDigest(REQUEST.body));
    expect(headers['signature-input']).toBe(
      'sig1=("@method" "@target-uri" "content-digest" "content-type");created=1700000000;keyid="k1";nonce="n-1";alg="ed25519"',
    );
    expect(headers.signature).toMatch(/^sig1=:[A-Za-z0-9+/]{86}==:$/);
  });

  test('signs the RFC 9421 signature base, written out here by hand', () => {
    const headers = signRequest({ ...REQUEST, method: 'post' }, KEY, { created: NOW, nonce: 'n-1' });
    const base = [
      '"@method": POST',
      `"@target-uri": ${REQUEST.targetUri}`,
      `"content-digest": ${contentDigest(REQUEST.body)}`,
      '"content-type": application/json',
      `"@signature-params": ${headers['signature-input'].slice('sig1='.length)}`,
    ].join('\n');
    const signature = Buffer.from(headers.signature.slice('sig1=:'.length, -1), 'base64');
    expect(ed25519Verify(base, signature, JWKS.keys[0]!)).toBe(true);
  });

  test('refuses a nonce, a kid or a created that the profile cannot carry', () => {
    const sign = (key: SigningKey, created: number, nonce: string) => () =>
      signRequest(REQUEST, key, { created, nonce });
    expect(sign(KEY, NOW, '')).toThrow(/nonce/);
    expect(sign(KEY, NOW, 'a"b')).toThrow(/nonce/);
    expect(sign(KEY, NOW, 'n'.repeat(129))).toThrow(/nonce/);
    expect(sign({ ...KEY, kid: 'k 1' }, NOW, 'n')).toThrow(/keyid/);
    expect(sign(KEY, 1.5, 'n')).toThrow(/created/);
    expect(sign(KEY, -1, 'n')).toThrow(/created/);
    expect(sign(KEY, NOW, 'n'.repeat(128))).not.toThrow();
  });

  test('refuses a signing key that is not Ed25519', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' });
    expect(() =>
      signRequest(REQUEST, { kid: 'k1', privateKeyPem: rsa as string }, { created: NOW, nonce: 'n' }),
    ).toThrow(/not an Ed25519 key/);
  });
});

describe('verifyRequest', () => {
  test('a signed request verifies, and says by which key, with which nonce and when', () => {
    expect(verdict(signed())).toEqual(VALID);
    expect(verdict(forged(COVERED_COMPONENTS))).toEqual(VALID);
  });

  test('a lower-case method is the same method: the covered value is upper case', () => {
    expect(verdict({ ...signed(), method: 'post' })).toEqual(VALID);
  });

  test('a tampered body is refused by its digest, and by the signature when the digest follows it', () => {
    const tampered = { ...signed(), body: REQUEST.body.replace('12500.00', '12500.01') };
    expect(verdict(tampered)).toEqual(refusal(/^content-digest does not match the body$/));
    expect(verdict({ ...signed(), body: `${REQUEST.body} ` })).toEqual(refusal(/content-digest does not match/));
    const digestToo = withHeaders(tampered, { 'content-digest': contentDigest(tampered.body) });
    expect(verdict(digestToo)).toEqual(refusal(/^the signature does not verify$/));
  });

  test('another method, URI or content type is refused by the signature', () => {
    const notVerified = refusal(/^the signature does not verify$/);
    expect(verdict({ ...signed(), method: 'PUT' })).toEqual(notVerified);
    expect(verdict({ ...signed(), targetUri: 'https://bank.example.com/v1/transfers?page=3' })).toEqual(notVerified);
    expect(verdict({ ...signed(), targetUri: 'https://evil.example.com/v1/transfers?page=2' })).toEqual(notVerified);
    expect(verdict(withHeaders(signed(), { 'content-type': 'text/plain' }))).toEqual(notVerified);
  });

  test('a signature by another key under our kid is refused', () => {
    const impostor = generateSigningKey('k1');
    expect(verdict(signed(impostor))).toEqual(refusal(/^the signature does not verify$/));
  });

  test('a signature that is not ours, or not 64 bytes, is refused', () => {
    const random = `sig1=:${randomBytes(64).toString('base64')}:`;
    expect(verdict(withHeaders(signed(), { signature: random }))).toEqual(refusal(/does not verify/));
    const short = `sig1=:${randomBytes(63).toString('base64')}:`;
    expect(verdict(withHeaders(signed(), { signature: short }))).toEqual(refusal(/does not verify/));
    const other = signRequest({ ...REQUEST, body: '{}' }, KEY, { created: NOW, nonce: 'n-1' }).signature;
    expect(verdict(withHeaders(signed(), { signature: other }))).toEqual(refusal(/does not verify/));
  });

  test('an unknown kid is refused', () => {
    expect(verdict(signed(generateSigningKey('k2')))).toEqual(refusal(/^unknown keyid k2$/));
  });

  test('during a rotation either published key verifies, each under its own kid only', () => {
    const next = generateSigningKey('k2');
    const both: Jwks = { keys: [JWKS.keys[0]!, publicJwk(next.privateKeyPem, 'k2')] };
    expect(verdict(signed(KEY), both)).toEqual(VALID);
    expect(verdict(signed(next), both)).toEqual({ ...VALID, keyid: 'k2' });
    expect(verdict(signed({ ...next, kid: 'k1' }), both)).toEqual(refusal(/does not verify/));
    expect(verdict(signed(next), { keys: [both.keys[1]!] })).toEqual({ ...VALID, keyid: 'k2' });
    expect(verdict(signed(KEY), { keys: [both.keys[1]!] })).toEqual(refusal(/unknown keyid k1/));
  });

  test(`created at most ${SIGNATURE_TOLERANCE_SECONDS} s away from now, either way`, () => {
    const outside = refusal(/^created is more than 300 s away from now$/);
    expect(verdict(signed(), JWKS, NOW + 300)).toEqual(VALID);
    expect(verdict(signed(), JWKS, NOW - 300)).toEqual(VALID);
    expect(verdict(signed(), JWKS, NOW + 301)).toEqual(outside);
    expect(verdict(signed(), JWKS, NOW - 301)).toEqual(outside);
    expect(verdict(signed(KEY, NOW - 3600))).toEqual(outside);
    expect(verdict(signed(KEY, NOW + 3600))).toEqual(outside);
  });

  test.each(['signature-input', 'signature', 'content-digest', 'content-type'])('a missing %s is refused', (name) => {
    const missing = refusal(new RegExp(`^the ${name} header is missing$`));
    expect(verdict(withHeaders(signed(), { [name]: undefined }))).toEqual(missing);
    expect(verdict(withHeaders(signed(), { [name]: '  ' }))).toEqual(missing);
  });

  test('a label other than sig1, or a second signature beside it, is refused', () => {
    expect(verdict(forged(COVERED_COMPONENTS, PARAMS, 'sig2'))).toEqual(
      refusal(/^signature-input must hold one signature labelled sig1, not: sig2$/),
    );
    const good = signed();
    const beside = `${good.headers['signature-input']}, sig2=${INPUT}`;
    expect(verdict(withHeaders(good, { 'signature-input': beside }))).toEqual(
      refusal(/labelled sig1, not: sig1, sig2/),
    );
    const relabelled = good.headers.signature!.replace('sig1=', 'sig2=');
    expect(verdict(withHeaders(good, { signature: relabelled }))).toEqual(
      refusal(/^signature must hold one signature labelled sig1, not: sig2$/),
    );
  });

  test('covered components other than exactly the four, in order, are refused', () => {
    const wrong = refusal(
      /^covered components must be exactly \("@method" "@target-uri" "content-digest" "content-type"\)$/,
    );
    expect(verdict(forged([...COVERED_COMPONENTS, 'content-length']))).toEqual(wrong);
    expect(verdict(forged(COVERED_COMPONENTS.slice(0, 3)))).toEqual(wrong);
    expect(verdict(forged(['@method', '@target-uri', 'content-type']))).toEqual(wrong);
    expect(verdict(forged(['@target-uri', '@method', 'content-digest', 'content-type']))).toEqual(wrong);
    expect(verdict(forged([]))).toEqual(wrong);
    const withParam = INPUT.replace('"content-type"', '"content-type";sf=1');
    expect(verdict(withHeaders(signed(), { 'signature-input': `sig1=${withParam}` }))).toEqual(wrong);
    const bytes = INPUT.replace('"content-type"', ':AAAA:');
    expect(verdict(withHeaders(signed(), { 'signature-input': `sig1=${bytes}` }))).toEqual(wrong);
    const notAList = withHeaders(signed(), { 'signature-input': 'sig1="@method";created=1' });
    expect(verdict(notAList)).toEqual(refusal(/^signature-input sig1 is not an inner list$/));
  });

  test('parameters other than created, keyid, nonce and alg="ed25519" are refused', () => {
    const without = (name: string) => PARAMS.filter(([key]) => key !== name);
    expect(verdict(forged(COVERED_COMPONENTS, without('created')))).toEqual(refusal(/needs created/));
    expect(verdict(forged(COVERED_COMPONENTS, without('keyid')))).toEqual(refusal(/needs keyid/));
    expect(verdict(forged(COVERED_COMPONENTS, without('nonce')))).toEqual(refusal(/needs nonce/));
    expect(verdict(forged(COVERED_COMPONENTS, without('alg')))).toEqual(refusal(/needs alg="ed25519"/));
    const replaced = (name: string, value: string | number) =>
      forged(
        COVERED_COMPONENTS,
        PARAMS.map(([key, old]) => [key, key === name ? value : old]),
      );
    expect(verdict(replaced('alg', 'rsa-pss-sha512'))).toEqual(refusal(/needs alg="ed25519"/));
    expect(verdict(replaced('alg', 'ED25519'))).toEqual(refusal(/needs alg="ed25519"/));
    expect(verdict(replaced('created', String(NOW)))).toEqual(refusal(/needs created, an integer/));
    expect(verdict(replaced('keyid', 'k 1'))).toEqual(refusal(/needs keyid/));
    expect(verdict(replaced('keyid', 7))).toEqual(refusal(/needs keyid/));
    expect(verdict(replaced('nonce', ''))).toEqual(refusal(/needs nonce/));
    expect(verdict(replaced('nonce', 'n'.repeat(129)))).toEqual(refusal(/needs nonce/));
    expect(verdict(replaced('nonce', 'n'.repeat(128)))).toEqual({ ...VALID, nonce: 'n'.repeat(128) });
    const expires: [string, number] = ['expires', NOW + 60];
    expect(verdict(forged(COVERED_COMPONENTS, [...PARAMS, expires]))).toEqual(
      refusal(/^signature-input has an unexpected parameter expires$/),
    );
  });

  test('parameters in another order verify: @signature-params keeps the order received', () => {
    const reordered = [PARAMS[3]!, PARAMS[1]!, PARAMS[2]!, PARAMS[0]!];
    expect(verdict(forged(COVERED_COMPONENTS, reordered))).toEqual(VALID);
  });

  test('spacing RFC 8941 allows still verifies: the parameters line is rebuilt, not copied', () => {
    const good = signed();
    const spaced = `  sig1=(  "@method"   "@target-uri" "content-digest" "content-type" );created=${NOW}; keyid="k1";nonce="n-1";alg="ed25519"  `;
    expect(verdict(withHeaders(good, { 'signature-input': spaced }))).toEqual(VALID);
    expect(verdict(withHeaders(good, { signature: ` ${good.headers.signature} ` }))).toEqual(VALID);
  });

  test('malformed structured fields are refused as such', () => {
    const good = signed();
    const malformedInput = [
      `sig1=("@method" "@target-uri" "content-digest" "content-type";created=${NOW}`,
      `sig1=("@method""@target-uri" "content-digest" "content-type");created=${NOW}`,
      `sig1=("@method"\t"@target-uri" "content-digest" "content-type");created=${NOW}`,
      `sig1=${INPUT},`,
      `sig1=${INPUT}, `,
      `sig1=${INPUT} sig2=${INPUT}`,
      `sig1=${INPUT}, sig1=${INPUT}`,
      `Sig1=${INPUT}`,
      'sig1',
      `sig1=${INPUT.replace(`created=${NOW}`, 'created=1700000000.5')}`,
      `sig1=${INPUT.replace(`created=${NOW}`, 'created=1234567890123456')}`,
      `sig1=${INPUT.replace(`created=${NOW}`, 'created=')}`,
      `sig1=${INPUT.replace('keyid="k1"', 'keyid=k1')}`,
      `sig1=${INPUT.replace('keyid="k1"', 'keyid="k1')}`,
      `sig1=${INPUT.replace('keyid="k1"', 'keyid="k\\1"')}`,
      `sig1=${INPUT.replace('keyid="k1"', 'keyid')}`,
      `sig1=${INPUT.replace('keyid="k1"', 'keyid="k1";keyid="k1"')}`,
      `sig1=${INPUT.replace('"@method"', '"@méthod"')}`,
      `sig1=${INPUT.replace('"@method"', '@method')}`,
      `sig1=${INPUT}garbage`,
    ];
    for (const value of malformedInput) {
      expect([value, verdict(withHeaders(good, { 'signature-input': value }))]).toEqual([
        value,
        refusal(/^signature-input is malformed: /),
      ]);
    }
    const malformedSignature = ['sig1=:abc$:', 'sig1=:AAAA', 'sig1=AAAA', 'sig1=:AA AA:', 'sig1=(:AAAA:)'];
    for (const value of malformedSignature) {
      expect([value, verdict(withHeaders(good, { signature: value }))]).toEqual([
        value,
        refusal(/^signature is malformed: |^signature sig1 is not a byte sequence$/),
      ]);
    }
    expect(verdict(withHeaders(good, { signature: 'sig1="AAAA"' }))).toEqual(
      refusal(/^signature sig1 is not a byte sequence$/),
    );
    expect(verdict(withHeaders(good, { 'content-digest': 'sha-256=:abc' }))).toEqual(
      refusal(/^content-digest is malformed: /),
    );
  });

  test('a content-digest other than exactly one sha-256 byte sequence is refused', () => {
    const good = signed();
    const digest = good.headers['content-digest']!;
    const sha512 = 'sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:';
    const wrong = refusal(/^content-digest must hold exactly one sha-256 byte sequence$/);
    for (const value of [sha512, `${digest}, ${sha512}`, 'sha-256="abc"', `${digest};q=1`, 'sha-256=(:AAAA:)']) {
      expect([value, verdict(withHeaders(good, { 'content-digest': value }))]).toEqual([value, wrong]);
    }
  });

  test('a line break in a covered value is refused, not thrown', () => {
    expect(verdict(withHeaders(signed(), { 'content-type': 'application/json\n"x": y' }))).toEqual(
      refusal(/line break/),
    );
  });
});

describe('parseJwks', () => {
  test('reads a JWKS of Ed25519 public keys, several at once', () => {
    const next = publicJwk(generateSigningKey('k2').privateKeyPem, 'k2');
    expect(parseJwks(JSON.stringify({ keys: [JWKS.keys[0], next] }))).toEqual({ keys: [JWKS.keys[0], next] });
    const bare = { kty: 'OKP', crv: 'Ed25519', x: RFC_X, kid: RFC_KID, key_ops: ['verify'] };
    expect(parseJwks(JSON.stringify({ keys: [bare] }))).toEqual({
      keys: [{ kty: 'OKP', crv: 'Ed25519', x: RFC_X, kid: RFC_KID, alg: 'EdDSA', use: 'sig' }],
    });
  });

  test('refuses anything else with a clear Error', () => {
    const key = { kty: 'OKP', crv: 'Ed25519', x: RFC_X, kid: 'k1', alg: 'EdDSA', use: 'sig' };
    const refused: [string, RegExp][] = [
      ['{', /not JSON/],
      ['null', /non-empty "keys" array/],
      ['[]', /non-empty "keys" array/],
      ['{}', /non-empty "keys" array/],
      ['{"keys":[]}', /non-empty "keys" array/],
      ['{"keys":{}}', /non-empty "keys" array/],
      [JSON.stringify({ keys: ['k1'] }), /key 0 is not an Ed25519 key/],
      [JSON.stringify({ keys: [key, { ...key, kid: 'k2', d: RFC_D }] }), /key 1 carries a private key/],
      [JSON.stringify({ keys: [{ ...key, kty: 'EC' }] }), /not an Ed25519 key/],
      [JSON.stringify({ keys: [{ ...key, crv: 'X25519' }] }), /not an Ed25519 key/],
      [JSON.stringify({ keys: [{ ...key, kid: undefined }] }), /needs a kid/],
      [JSON.stringify({ keys: [{ ...key, kid: 'k 1' }] }), /needs a kid/],
      [JSON.stringify({ keys: [{ ...key, kid: 'k'.repeat(129) }] }), /needs a kid/],
      [JSON.stringify({ keys: [{ ...key, x: undefined }] }), /needs x/],
      [JSON.stringify({ keys: [{ ...key, x: RFC_X.slice(0, 42) }] }), /needs x/],
      [JSON.stringify({ keys: [{ ...key, x: `${RFC_X}=` }] }), /needs x/],
      [JSON.stringify({ keys: [{ ...key, x: Buffer.from(RFC_X, 'base64url').toString('base64') }] }), /needs x/],
      [JSON.stringify({ keys: [{ ...key, x: `${RFC_X.slice(0, 42)}t` }] }), /needs x/], // same bytes, not canonical
      [JSON.stringify({ keys: [{ ...key, alg: 'ES256' }] }), /alg other than EdDSA/],
      [JSON.stringify({ keys: [{ ...key, use: 'enc' }] }), /use other than sig/],
      [JSON.stringify({ keys: [key, { ...key }] }), /kid twice/],
    ];
    for (const [text, message] of refused) expect(() => parseJwks(text)).toThrow(message);
  });
});

describe('keys', () => {
  test('publicJwk is the public half of the private key', () => {
    const jwk = publicJwk(KEY.privateKeyPem, 'k1');
    expect(jwk).toEqual({ kty: 'OKP', crv: 'Ed25519', x: expect.any(String), kid: 'k1', alg: 'EdDSA', use: 'sig' });
    expect(jwk.x).toBe(createPublicKey(KEY.privateKeyPem).export({ format: 'jwk' }).x);
    expect(ed25519Verify('base', ed25519Sign('base', KEY.privateKeyPem), jwk)).toBe(true);
    expect(ed25519Verify('base', ed25519Sign('base', generateSigningKey('k1').privateKeyPem), jwk)).toBe(false);
    expect(parseJwks(JSON.stringify({ keys: [jwk] }))).toEqual({ keys: [jwk] });
  });

  test('generateSigningKey makes a fresh PKCS#8 Ed25519 key each time', () => {
    const [one, two] = [generateSigningKey('a'), generateSigningKey('b')];
    expect(one.kid).toBe('a');
    expect(one.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(publicJwk(one.privateKeyPem, 'a').x).not.toBe(publicJwk(two.privateKeyPem, 'b').x);
  });

  test('a private JWK signs like its PEM; one whose x is not the public half of d is refused', () => {
    const { d } = createPrivateKey(KEY.privateKeyPem).export({ format: 'jwk' });
    const jwk = { ...publicJwk(KEY.privateKeyPem, 'k1'), d: d! };
    expect(signingKeyFromJwk(jwk)).toEqual(KEY);
    const other = publicJwk(generateSigningKey('k1').privateKeyPem, 'k1');
    expect(() => signingKeyFromJwk({ ...jwk, x: other.x })).toThrow();
  });
});
