/**
 * The public-address rule (shared/domain/public-address.ts) against the `ipaddr.js` package's ranges,
 * over random addresses: uniform ones, and ones drawn inside each special range and on its edges, in
 * every spelling the rule receives (compressed, full, a dotted IPv4 tail). Where ipaddr.js names a
 * form that carries an IPv4 address (mapped, translated, NAT64, 6to4, Teredo), the answer is the
 * embedded IPv4 address's; an IPv6 address ipaddr.js calls `unicast` is public only inside 2000::/3,
 * the block IANA allocates for global unicast.
 */
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { isPublicAddress } from '../../shared/domain/public-address';

const ipv4Of = (high: number, low: number): ipaddr.IPv4 =>
  new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/** What ipaddr.js's ranges say of the address. */
function expectedPublic(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const ipv6 = address as ipaddr.IPv6;
  const words = ipv6.parts;
  switch (ipv6.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return expectedPublic(ipv4Of(words[6]!, words[7]!));
    case 'rfc6052':
      // The well-known NAT64 prefix carries the IPv4 address; the local-use 64:ff9b:1::/48 is refused.
      return words[2] === 0 && words[3] === 0 && words[4] === 0 && words[5] === 0
        ? expectedPublic(ipv4Of(words[6]!, words[7]!))
        : false;
    case '6to4':
      return expectedPublic(ipv4Of(words[1]!, words[2]!));
    case 'teredo':
      return (
        expectedPublic(ipv4Of(words[2]!, words[3]!)) && expectedPublic(ipv4Of(~words[6]! & 0xffff, ~words[7]! & 0xffff))
      );
    case 'unicast':
      return (words[0]! & 0xe000) === 0x2000;
    default:
      return false;
  }
}

const byte = fc.integer({ min: 0, max: 255 });
const word = fc.integer({ min: 0, max: 0xffff });

/** The first octets of IPv4 ranges worth aiming at, and of their neighbours. */
const IPV4_PREFIXES: readonly number[][] = [
  [0],
  [10],
  [100, 64],
  [100, 127],
  [100, 128],
  [127],
  [169, 254],
  [172, 15],
  [172, 16],
  [172, 31],
  [172, 32],
  [192, 0, 0],
  [192, 0, 2],
  [192, 31, 196],
  [192, 52, 193],
  [192, 88, 99],
  [192, 168],
  [192, 175, 48],
  [198, 17],
  [198, 18],
  [198, 19],
  [198, 20],
  [198, 51, 100],
  [203, 0, 113],
  [223],
  [224],
  [239],
  [240],
  [255],
];

const ipv4 = fc.oneof(
  fc.tuple(byte, byte, byte, byte),
  fc
    .tuple(fc.constantFrom(...IPV4_PREFIXES), byte, byte, byte, byte)
    .map(([prefix, ...rest]) => [...prefix, ...rest].slice(0, 4) as [number, number, number, number]),
);

/** The first words of IPv6 ranges worth aiming at; the rest random, or an IPv4 address from above. */
const IPV6_PREFIXES: readonly number[][] = [
  [0, 0, 0, 0, 0, 0xffff],
  [0, 0, 0, 0, 0xffff, 0],
  [0, 0, 0, 0, 0, 0],
  [0x64, 0xff9b, 0, 0, 0, 0],
  [0x64, 0xff9b, 1],
  [0x2002],
  [0x2001, 0],
  [0x2001, 0x2],
  [0x2001, 0x3],
  [0x2001, 0x4, 0x112],
  [0x2001, 0x10],
  [0x2001, 0x20],
  [0x2001, 0x30],
  [0x2001, 0x1ff],
  [0x2001, 0x200],
  [0x2001, 0xdb8],
  [0x2620, 0x4f, 0x8000],
  [0x2606],
  [0x3fff],
  [0x3fff, 0x1000],
  [0x4000],
  [0x1fff],
  [0x5f00],
  [0xfc00],
  [0xfe80],
  [0xfec0],
  [0xff02],
  [0x100, 0, 0, 0],
];

const ipv6 = fc.oneof(
  fc.array(word, { minLength: 8, maxLength: 8 }),
  fc
    .tuple(fc.constantFrom(...IPV6_PREFIXES), fc.array(word, { minLength: 8, maxLength: 8 }), ipv4)
    .map(([prefix, rest, [a, b, c, d]]) => {
      const words = [...prefix, ...rest].slice(0, 8);
      // Half the time the last 32 bits are an IPv4 address aimed at a range too.
      return rest[0]! % 2 === 0 ? [...words.slice(0, 6), (a << 8) | b, (c << 8) | d] : words;
    }),
);

describe('isPublicAddress agrees with ipaddr.js', () => {
  test('on IPv4 addresses', () => {
    fc.assert(
      fc.property(ipv4, (octets) => {
        const address = new ipaddr.IPv4(octets);
        expect([address.toString(), isPublicAddress(address.toString())]).toEqual([
          address.toString(),
          expectedPublic(address),
        ]);
      }),
      { numRuns: 20_000 },
    );
  });

  test('on IPv6 addresses, in each spelling', () => {
    fc.assert(
      fc.property(ipv6, (words) => {
        const address = new ipaddr.IPv6(words);
        const expected = expectedPublic(address);
        const dotted = `${address.toNormalizedString().split(':').slice(0, 6).join(':')}:${ipv4Of(words[6]!, words[7]!).toString()}`;
        for (const spelling of [
          address.toString(),
          address.toNormalizedString(),
          words.map((w) => w.toString(16).padStart(4, '0')).join(':'),
          dotted,
        ]) {
          expect([spelling, isPublicAddress(spelling)]).toEqual([spelling, expected]);
        }
      }),
      { numRuns: 20_000 },
    );
  });

  test('anything that is not an IP address is not public', () => {
    for (const value of ['', 'hooks.example.com', '1.2.3', '::g', '2130706433'])
      expect(isPublicAddress(value)).toBe(false);
  });
});
