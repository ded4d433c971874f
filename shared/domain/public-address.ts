/**
 * Which IP addresses are public: the only ones a webhook or an approval callback may reach
 * (shared/domain/webhook-urls.ts). An allow rule, not a list of bad ranges: an IPv6 address passes
 * only inside the global unicast block 2000::/3, and an IPv4 address only outside every range of
 * IANA's special-purpose registry. The forms that carry an IPv4 address inside an IPv6 one (mapped,
 * translated, NAT64, 6to4, Teredo) are judged by the IPv4 address they reach: `[64:ff9b::a9fe:a9fe]`
 * is the metadata service through a NAT64 gateway. test/unit/public-address.test.ts compares the
 * rule with the ranges of the `ipaddr.js` package over random addresses.
 */
import { isIP } from 'node:net';

type Range = readonly [network: bigint, prefix: number];

const ipv4Range = (cidr: string): Range => {
  const [network, prefix] = cidr.split('/') as [string, string];
  return [BigInt(ipv4Value(network)), Number(prefix)];
};

/**
 * IANA's IPv4 special-purpose ranges, and the rest that is not unicast (multicast, the reserved
 * class E, broadcast). Some of the registry's are marked globally reachable (AS112, AMT, 192.0.0.9
 * and .10): no receiver of ours lives there, so they are refused too.
 */
const NON_PUBLIC_IPV4: readonly Range[] = [
  '0.0.0.0/8', // "this network"; 0.0.0.0 reaches the local host on most systems
  '10.0.0.0/8',
  '100.64.0.0/10', // carrier-grade NAT
  '127.0.0.0/8',
  '169.254.0.0/16', // link-local: the cloud metadata service, 169.254.169.254
  '172.16.0.0/12',
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation (TEST-NET-1)
  '192.31.196.0/24', // AS112
  '192.52.193.0/24', // AMT
  '192.88.99.0/24', // the deprecated 6to4 relay anycast
  '192.168.0.0/16',
  '192.175.48.0/24', // AS112
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation (TEST-NET-2)
  '203.0.113.0/24', // documentation (TEST-NET-3)
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, and 255.255.255.255
].map(ipv4Range);

const ipv6Range = (cidr: string): Range => {
  const [network, prefix] = cidr.split('/') as [string, string];
  return [ipv6Value(network), Number(prefix)];
};

/** Inside 2000::/3, the blocks that are not global unicast, or not ours to call. */
const NON_PUBLIC_GLOBAL_IPV6: readonly Range[] = [
  '2001::/23', // IETF protocol assignments (Teredo, 2001::/32, is judged apart, below)
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation
  '2620:4f:8000::/48', // AS112
].map(ipv6Range);

const GLOBAL_UNICAST = ipv6Range('2000::/3');

/** The IPv6 blocks that carry an IPv4 address in their last 32 bits. */
const LAST_32_BITS_IPV4: readonly Range[] = [
  '::ffff:0:0/96', // IPv4-mapped
  '::ffff:0:0:0/96', // IPv4-translated (SIIT)
  '64:ff9b::/96', // NAT64, the well-known prefix
].map(ipv6Range);

const SIX_TO_FOUR = ipv6Range('2002::/16');
const TEREDO = ipv6Range('2001::/32');

function ipv4Value(address: string): number {
  return address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

/** The 128-bit value of an IPv6 address that isIP accepted (`::` shorthand, a dotted IPv4 tail, a zone). */
function ipv6Value(address: string): bigint {
  let text = address.split('%')[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const value = ipv4Value(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const words = (part: string | undefined): string[] => (part ? part.split(':') : []);
  const missing = 8 - words(head).length - words(tail).length;
  const all = tail === undefined ? words(head) : [...words(head), ...Array<string>(missing).fill('0'), ...words(tail)];
  return all.reduce((value, word) => (value << 16n) | BigInt(parseInt(word, 16)), 0n);
}

const inRange = (value: bigint, bits: number, [network, prefix]: Range): boolean =>
  value >> BigInt(bits - prefix) === network >> BigInt(bits - prefix);

const ipv4At = (value: bigint, shift: number): bigint => (value >> BigInt(shift)) & 0xffffffffn;

function isPublicIpv4(value: bigint): boolean {
  return !NON_PUBLIC_IPV4.some((range) => inRange(value, 32, range));
}

function isPublicIpv6(value: bigint): boolean {
  if (LAST_32_BITS_IPV4.some((range) => inRange(value, 128, range))) return isPublicIpv4(ipv4At(value, 0));
  if (inRange(value, 128, SIX_TO_FOUR)) return isPublicIpv4(ipv4At(value, 80));
  // Teredo: the server's IPv4 address, then the client's with every bit flipped.
  if (inRange(value, 128, TEREDO)) return isPublicIpv4(ipv4At(value, 64)) && isPublicIpv4(ipv4At(~value, 0));
  return inRange(value, 128, GLOBAL_UNICAST) && !NON_PUBLIC_GLOBAL_IPV6.some((range) => inRange(value, 128, range));
}

/** Whether `address` (an IPv4 or IPv6 literal) is a public unicast address; false for anything else. */
export function isPublicAddress(address: string): boolean {
  switch (isIP(address.split('%')[0]!)) {
    case 4:
      return isPublicIpv4(BigInt(ipv4Value(address)));
    case 6:
      return isPublicIpv6(ipv6Value(address));
    default:
      return false;
  }
}

/** Whether `address` is a loopback address (127.0.0.0/8, ::1, or the IPv4 one in a mapped form). */
export function isLoopbackAddress(address: string): boolean {
  const loopback = ipv4Range('127.0.0.0/8');
  switch (isIP(address.split('%')[0]!)) {
    case 4:
      return inRange(BigInt(ipv4Value(address)), 32, loopback);
    case 6: {
      const value = ipv6Value(address);
      if (value === 1n) return true;
      return inRange(value, 128, ipv6Range('::ffff:0:0/96')) && inRange(ipv4At(value, 0), 32, loopback);
    }
    default:
      return false;
  }
}
