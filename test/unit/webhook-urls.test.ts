/**
 * Where a webhook may send (shared/domain/webhook-urls.ts): the URL rules on a deployed stage and on
 * the local one, literal addresses in every spelling the URL parser accepts, and host names through a
 * resolver (an in-memory table of names here, the system's resolver for `localhost`).
 */
import { AppError } from '../../shared/domain/errors';
import {
  addressRefusal,
  checkWebhookUrl,
  inspectWebhookUrl,
  type HostResolver,
  type WebhookUrlPolicy,
} from '../../shared/domain/webhook-urls';
import { systemHostResolver } from '../../shared/data/host-resolver';

/** A resolver over a fixed table of names: the DNS of these tests. */
const tableResolver = (names: Record<string, readonly string[]>): HostResolver => ({
  resolve: async (hostname) => names[hostname] ?? [],
});

const names = tableResolver({
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'internal.example.com': ['10.1.2.3'],
  // One private address among public ones: a connection may pick it.
  'mixed.example.com': ['93.184.216.34', '10.0.0.5'],
  'metadata.example.com': ['169.254.169.254'],
  'mapped.example.com': ['::ffff:192.168.0.10'],
  localhost: ['127.0.0.1', '::1'],
  'rebound.localhost': ['127.0.0.1', '10.0.0.1'],
});

/** What every refusal of an address says, naming none. */
const NON_PUBLIC = 'a non-public address';

const DEPLOYED: WebhookUrlPolicy = { localReceivers: false };
const LOCAL: WebhookUrlPolicy = { localReceivers: true };

const reasonOf = async (url: string, policy: WebhookUrlPolicy, resolver = names): Promise<string | undefined> => {
  const check = await inspectWebhookUrl(url, policy, resolver);
  return check.allowed ? undefined : check.reason;
};

describe('on a deployed stage', () => {
  test.each([
    'https://hooks.example.com/breb',
    'https://hooks.example.com:8443/breb?source=api',
    'https://93.184.216.34/hooks',
    'https://[2606:4700:4700::1111]/hooks',
    // IPv4 inside IPv6 that reaches a public address: NAT64 (an IPv6-only network's DNS64 answers
    // these), 6to4, Teredo with a public client.
    'https://[64:ff9b::5db8:d822]/hooks',
    'https://[2002:5db8:d822::1]/hooks',
    'https://[2001:0:4136:e378:8000:63bf:a247:27dd]/hooks',
    // Just outside the refused ranges.
    'https://172.32.0.1/x',
    'https://172.15.255.255/x',
    'https://100.128.0.1/x',
    'https://169.255.0.1/x',
    'https://11.0.0.1/x',
  ])('accepts %s', async (url) => {
    expect(await reasonOf(url, DEPLOYED)).toBeUndefined();
  });

  test.each([
    ['http://hooks.example.com/breb', 'must be an https URL'],
    ['ftp://hooks.example.com/breb', 'must be an https URL'],
    ['hooks.example.com/breb', 'must be an absolute URL'],
    ['https://', 'must be an absolute URL'],
    ['https://user:secret@hooks.example.com/breb', 'must not carry credentials'],
    ['https://user@hooks.example.com/breb', 'must not carry credentials'],
    ['http://127.0.0.1:8080/hooks', 'must be an https URL'],
    ['https://127.0.0.1/hooks', NON_PUBLIC],
    ['https://127.1.2.3/hooks', NON_PUBLIC],
    // Other spellings of 127.0.0.1 that the URL parser normalises.
    ['https://2130706433/hooks', NON_PUBLIC],
    ['https://0x7f.1/hooks', NON_PUBLIC],
    ['https://localhost/hooks', NON_PUBLIC],
    ['https://[::1]/hooks', NON_PUBLIC],
    ['https://10.0.0.1/hooks', NON_PUBLIC],
    ['https://172.16.0.1/hooks', NON_PUBLIC],
    ['https://172.31.255.255/hooks', NON_PUBLIC],
    ['https://192.168.1.10/hooks', NON_PUBLIC],
    ['https://[fc00::1]/hooks', NON_PUBLIC],
    ['https://[fd12:3456:789a::1]/hooks', NON_PUBLIC],
    ['https://169.254.169.254/latest/meta-data/', NON_PUBLIC],
    ['https://169.254.10.1/hooks', NON_PUBLIC],
    ['https://[fe80::1]/hooks', NON_PUBLIC],
    ['https://100.64.0.1/hooks', NON_PUBLIC],
    ['https://100.127.255.254/hooks', NON_PUBLIC],
    ['https://0.0.0.0/hooks', NON_PUBLIC],
    ['https://[::]/hooks', NON_PUBLIC],
    ['https://224.0.0.1/hooks', NON_PUBLIC],
    ['https://255.255.255.255/hooks', NON_PUBLIC],
    ['https://[ff02::1]/hooks', NON_PUBLIC],
    // The special-purpose ranges beyond the private ones (IANA's registry).
    ['https://198.18.0.1/hooks', NON_PUBLIC],
    ['https://198.19.255.254/hooks', NON_PUBLIC],
    ['https://192.0.0.8/hooks', NON_PUBLIC],
    ['https://192.0.2.10/hooks', NON_PUBLIC],
    ['https://198.51.100.7/hooks', NON_PUBLIC],
    ['https://203.0.113.9/hooks', NON_PUBLIC],
    ['https://240.0.0.1/hooks', NON_PUBLIC],
    ['https://[2001:db8::1]/hooks', NON_PUBLIC],
    ['https://[3fff::1]/hooks', NON_PUBLIC],
    ['https://[2001:2::1]/hooks', NON_PUBLIC],
    ['https://[100::1]/hooks', NON_PUBLIC],
    // Outside the global unicast block 2000::/3.
    ['https://[4000::1]/hooks', NON_PUBLIC],
    // IPv4 inside IPv6: NAT64 (the metadata service through it), 6to4, Teredo, translated.
    ['https://[64:ff9b::a9fe:a9fe]/hooks', NON_PUBLIC],
    ['https://[64:ff9b::10.0.0.1]/hooks', NON_PUBLIC],
    ['https://[64:ff9b:1::a9fe:a9fe]/hooks', NON_PUBLIC],
    ['https://[2002:a9fe:a9fe::1]/hooks', NON_PUBLIC],
    ['https://[2002:7f00:1::]/hooks', NON_PUBLIC],
    // Teredo: server 65.54.227.120, client 10.0.0.1 with every bit flipped (f5ff:fffe).
    ['https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/hooks', NON_PUBLIC],
    ['https://[::ffff:0:a9fe:a9fe]/hooks', NON_PUBLIC],
    // IPv4-mapped IPv6 forms of refused IPv4 addresses.
    ['https://[::ffff:127.0.0.1]/hooks', NON_PUBLIC],
    ['https://[::ffff:a9fe:a9fe]/hooks', NON_PUBLIC],
    ['https://[::ffff:10.0.0.1]/hooks', NON_PUBLIC],
    // Names resolving to refused addresses: every address must pass.
    ['https://internal.example.com/hooks', 'its host resolves to a non-public address'],
    ['https://mixed.example.com/hooks', 'its host resolves to a non-public address'],
    ['https://metadata.example.com/hooks', NON_PUBLIC],
    ['https://mapped.example.com/hooks', NON_PUBLIC],
    ['https://nowhere.example.com/hooks', 'does not resolve to any address'],
    [`https://hooks.example.com/${'a'.repeat(2048)}`, 'at most 2048 characters'],
  ])('refuses %s: %s', async (url, reason) => {
    const refusal = await reasonOf(url, DEPLOYED);
    expect(refusal).toContain(reason);
    // Never the address itself: a refusal tells nothing of what a name resolves to inside.
    expect(refusal).not.toMatch(/\d+\.\d+\.\d+\.\d+|[0-9a-f]*:[0-9a-f:]+/i);
  });
});

describe('on the local stage', () => {
  test.each([
    'http://127.0.0.1:4000/hooks',
    'http://127.0.0.1/hooks',
    'http://localhost:4000/hooks',
    'https://localhost:4443/hooks',
    'https://hooks.example.com/breb',
  ])('accepts %s', async (url) => {
    expect(await reasonOf(url, LOCAL)).toBeUndefined();
  });

  test.each([
    ['http://hooks.example.com/breb', 'http is accepted only for http://127.0.0.1 and http://localhost'],
    ['http://10.0.0.1/hooks', 'must be an https URL'],
    ['https://10.0.0.1/hooks', NON_PUBLIC],
    ['https://169.254.169.254/latest/meta-data/', NON_PUBLIC],
    // Only the two spellings of the exception: other loopback forms stay refused.
    ['http://[::1]:4000/hooks', 'must be an https URL'],
    ['https://[::1]:4000/hooks', NON_PUBLIC],
    ['https://127.0.0.2/hooks', NON_PUBLIC],
    ['http://user:secret@127.0.0.1:4000/hooks', 'must not carry credentials'],
  ])('refuses %s: %s', async (url, reason) => {
    expect(await reasonOf(url, LOCAL)).toContain(reason);
  });

  test('localhost must resolve to loopback addresses only', async () => {
    const rebound = tableResolver({ localhost: ['127.0.0.1', '10.0.0.1'] });
    expect(await reasonOf('http://localhost:4000/hooks', LOCAL, rebound)).toBe(
      'must not point to anything but this machine: its host resolves to an address other than loopback',
    );
  });
});

test('a resolver that fails refuses the URL rather than letting it through unchecked', async () => {
  const failing: HostResolver = {
    resolve: () => Promise.reject(Object.assign(new Error('queryA ETIMEOUT'), { code: 'ETIMEOUT' })),
  };
  expect(await reasonOf('https://hooks.example.com/breb', DEPLOYED, failing)).toBe(
    'has a host, hooks.example.com, that could not be resolved just now: retry, or check the name',
  );
});

describe('the answer a client reads', () => {
  test('a refused URL is 400 VALIDATION_FAILED on url, saying what to fix', async () => {
    const error = await checkWebhookUrl('https://169.254.169.254/latest', DEPLOYED, names).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('VALIDATION_FAILED');
    expect((error as AppError).extensions.errors).toEqual([
      {
        field: 'url',
        message: 'must not point to a non-public address: its host is a non-public address',
      },
    ]);
  });

  test('on a deployed stage, a URL set names port 443 or none; the local stage takes any port', async () => {
    const refusal = async (url: string, policy: WebhookUrlPolicy) =>
      (await checkWebhookUrl(url, policy, names).catch((e: unknown) => e)) as AppError | undefined;
    for (const url of ['https://hooks.example.com/breb', 'https://hooks.example.com:443/breb']) {
      expect(await refusal(url, DEPLOYED)).toBeUndefined();
    }
    for (const [url, port] of [
      ['https://hooks.example.com:8443/breb', '8443'],
      ['https://93.184.216.34:22/hooks', '22'],
      ['https://hooks.example.com:80/breb', '80'],
    ] as const) {
      const error = await refusal(url, DEPLOYED);
      expect(error).toBeInstanceOf(AppError);
      expect(error!.extensions.errors).toEqual([
        { field: 'url', message: `must name port 443 or none (it names ${port})` },
      ]);
    }
    expect(await refusal('https://hooks.example.com:8443/breb', LOCAL)).toBeUndefined();
    expect(await refusal('http://127.0.0.1:4000/hooks', LOCAL)).toBeUndefined();
  });

  test('an accepted URL answers the addresses checked, for the sender to connect to', async () => {
    const check = await inspectWebhookUrl('https://hooks.example.com/breb', DEPLOYED, names);
    expect(check).toMatchObject({ allowed: true, addresses: ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] });
  });
});

describe('addressRefusal, which the sender applies to the address it connects to', () => {
  test.each([
    ['93.184.216.34', undefined],
    ['2606:4700:4700::1111', undefined],
    ['64:ff9b::93.184.216.34', undefined],
    ['127.0.0.1', NON_PUBLIC],
    ['::ffff:127.0.0.1', NON_PUBLIC],
    ['169.254.169.254', NON_PUBLIC],
    ['64:ff9b::a9fe:a9fe', NON_PUBLIC],
    ['fd00::1', NON_PUBLIC],
    ['fe80::1%eth0', NON_PUBLIC],
    ['hooks.example.com', NON_PUBLIC],
  ])('%s: %s', (address, reason) => {
    expect(addressRefusal(address)).toBe(reason);
  });
});

describe("the system's resolver (node:dns lookup, every address)", () => {
  test('resolves localhost to loopback addresses only', async () => {
    const addresses = await systemHostResolver.resolve('localhost');
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.map(addressRefusal)).toEqual(addresses.map(() => NON_PUBLIC));
  });

  test('http://localhost is a receiver on the local stage and refused on a deployed one', async () => {
    await expect(checkWebhookUrl('http://localhost:9/hooks', LOCAL, systemHostResolver)).resolves.toBeUndefined();
    expect(await reasonOf('https://localhost:9/hooks', DEPLOYED, systemHostResolver)).toContain(NON_PUBLIC);
  });

  test('a name that does not exist resolves to no address (RFC 6761: .invalid never resolves)', async () => {
    expect(await systemHostResolver.resolve('nowhere.invalid')).toEqual([]);
  });
});
