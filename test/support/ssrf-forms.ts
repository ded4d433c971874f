/**
 * URLs whose host is a non-public address in a form an SSRF filter of private ranges alone lets
 * through (docs/webhooks.md, URL rules): the e2e tests send each as a webhook URL and as an approval
 * callback, and expect 400 naming no address.
 */
export const SSRF_FORMS: readonly (readonly [what: string, url: string])[] = [
  ['the metadata service through NAT64', 'https://[64:ff9b::a9fe:a9fe]/latest/meta-data/'],
  ['a private address through the local-use NAT64 prefix', 'https://[64:ff9b:1::a00:1]/hooks'],
  ['the metadata service through 6to4', 'https://[2002:a9fe:a9fe::1]/hooks'],
  ['a private client through Teredo', 'https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/hooks'],
  ['an IPv4-translated private address', 'https://[::ffff:0:a00:1]/hooks'],
  ['the benchmarking range', 'https://198.18.0.10/hooks'],
  ['the IETF protocol assignments', 'https://192.0.0.170/hooks'],
  ['a documentation address (IPv4)', 'https://203.0.113.5/hooks'],
  ['a documentation address (IPv6)', 'https://[2001:db8::1]/hooks'],
  ['the new IPv6 documentation range', 'https://[3fff::1]/hooks'],
];
