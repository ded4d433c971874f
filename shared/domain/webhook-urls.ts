/**
 * Where a webhook may send (docs/webhooks.md, URL rules): a guard against server-side request
 * forgery. A webhook URL is chosen by a client and fetched by our functions, inside our network: left
 * unchecked it would reach the instance metadata service, a private address or the function's own
 * loopback. Checked when a webhook is created or its URL changed, and again by the sender on the
 * address it resolved at send time (a name can resolve elsewhere later), which it then connects to.
 */
import { isIP } from 'node:net';
import { MAX_WEBHOOK_URL_LENGTH } from '../schemas/bounds';
import { invalidField } from './errors';
import { isLoopbackAddress, isPublicAddress } from './public-address';

/** Looks a host name up: every address it resolves to (empty when the name does not exist). */
export interface HostResolver {
  resolve(hostname: string): Promise<readonly string[]>;
}

export interface WebhookUrlPolicy {
  /**
   * The local stage's exception: a developer's receiver on this machine, `http://127.0.0.1[:port]`
   * or `http://localhost[:port]`. Never on a deployed stage, where the loopback is the function's own.
   */
  readonly localReceivers: boolean;
}

/** Host names of the local stage's exception; `localhost` must still resolve to loopback addresses only. */
const LOCAL_RECEIVER_HOSTS = new Set(['127.0.0.1', 'localhost']);

/**
 * Why a webhook may not be sent to this IP address, or undefined when it may: only public unicast
 * addresses pass (shared/domain/public-address.ts). The words never name the address: a refusal
 * must not tell a client what a name resolves to inside our network.
 */
export function addressRefusal(address: string): string | undefined {
  return isPublicAddress(address) ? undefined : 'a non-public address';
}

/** The local stage's exception reaches this machine only: a loopback address, nothing else. */
const localRefusal = (address: string): string | undefined =>
  isLoopbackAddress(address) ? undefined : 'an address other than loopback';

/** What a URL check found: the parsed URL and the addresses it may connect to, or why it may not. */
export type WebhookUrlCheck =
  | { readonly allowed: true; readonly url: URL; readonly addresses: readonly string[] }
  | { readonly allowed: false; readonly reason: string };

const refused = (reason: string): WebhookUrlCheck => ({ allowed: false, reason });

/** The host of a URL as an IP address (brackets of an IPv6 literal removed), or undefined for a name. */
function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : undefined;
}

/**
 * Checks a webhook URL under the stage's policy, resolving its host name through `resolver`: every
 * address it resolves to must pass (a name with one private address among public ones is refused,
 * since the connection may pick any of them).
 */
export async function inspectWebhookUrl(
  raw: string,
  policy: WebhookUrlPolicy,
  resolver: HostResolver,
): Promise<WebhookUrlCheck> {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return refused(`must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refused('must be an absolute URL, e.g. https://hooks.example.com/breb');
  }
  const local = policy.localReceivers && LOCAL_RECEIVER_HOSTS.has(url.hostname);
  const schemes = local ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    return refused(
      policy.localReceivers
        ? 'must be an https URL (http is accepted only for http://127.0.0.1 and http://localhost on the local stage)'
        : 'must be an https URL',
    );
  }
  if (url.username || url.password) {
    return refused('must not carry credentials (user:password@); authenticate our calls with the signature');
  }
  const literal = literalAddress(url.hostname);
  let addresses: readonly string[];
  try {
    addresses = literal ? [literal] : await resolver.resolve(url.hostname);
  } catch {
    // A resolver that failed (timed out, refused) said nothing about the name: no address is checked.
    return refused(`has a host, ${url.hostname}, that could not be resolved just now: retry, or check the name`);
  }
  if (addresses.length === 0) return refused(`has a host, ${url.hostname}, that does not resolve to any address`);
  for (const address of addresses) {
    const why = local ? localRefusal(address) : addressRefusal(address);
    if (why) {
      const where = literal ? `its host is ${why}` : `its host resolves to ${why}`;
      return refused(`must not point to ${local ? 'anything but this machine' : 'a non-public address'}: ${where}`);
    }
  }
  return { allowed: true, url, addresses };
}

/**
 * inspectWebhookUrl for a request (a webhook's URL, an approval callback's): 400 VALIDATION_FAILED on
 * `field` when the URL is refused. On a deployed stage it also names port 443 or none: our calls
 * leave only for the web's HTTPS port, never another service a public host runs. (Checked when a URL
 * is set, not on each attempt: a URL set before the rule keeps working until it is changed.)
 */
export async function checkWebhookUrl(
  raw: string,
  policy: WebhookUrlPolicy,
  resolver: HostResolver,
  field = 'url',
): Promise<void> {
  const check = await inspectWebhookUrl(raw, policy, resolver);
  if (!check.allowed) throw invalidField(field, check.reason);
  if (!policy.localReceivers && check.url.port !== '') {
    throw invalidField(field, `must name port 443 or none (it names ${check.url.port})`);
  }
}
