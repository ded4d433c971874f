/**
 * The webhook URL check's host resolver (shared/domain/webhook-urls.ts) on Lambda and locally: the
 * system's resolver, every address of the name (IPv4 and IPv6), as a connection would choose from.
 */
import { lookup } from 'node:dns/promises';
import type { HostResolver, WebhookUrlPolicy } from '../domain/webhook-urls';
import type { WebhookUrlDeps } from '../domain/webhooks';
import { LOCAL_STAGE, runtimeConfig } from '../runtime/config';

/** Codes of a name that does not exist or has no address: an answer (none), not a failure. */
const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

/**
 * How long a lookup may take: the system resolver retries for far longer than a request (10 s on
 * Lambda) should wait; past this the check answers that the name could not be resolved just now.
 */
export const RESOLVE_TIMEOUT_MS = 3_000;

async function lookupAll(hostname: string): Promise<readonly string[]> {
  try {
    return (await lookup(hostname, { all: true, verbatim: true })).map(({ address }) => address);
  } catch (error) {
    if (NO_SUCH_NAME.has((error as NodeJS.ErrnoException).code ?? '')) return [];
    throw error;
  }
}

export const systemHostResolver: HostResolver = {
  async resolve(hostname: string): Promise<readonly string[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Resolving ${hostname} took over ${RESOLVE_TIMEOUT_MS} ms`)),
        RESOLVE_TIMEOUT_MS,
      );
    });
    try {
      return await Promise.race([lookupAll(hostname), timeout]);
    } finally {
      clearTimeout(timer);
    }
  },
};

/** The URL rules of this stage: the local stage's loopback exception, on no other. */
export const webhookUrlPolicy = (): WebhookUrlPolicy => ({ localReceivers: runtimeConfig().stage === LOCAL_STAGE });

/** What the webhook URL check needs on this stage: its policy and the resolver. */
export const webhookUrlDeps = (): WebhookUrlDeps => ({ urlPolicy: webhookUrlPolicy(), resolver: systemHostResolver });
