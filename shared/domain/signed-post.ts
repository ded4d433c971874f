/**
 * One signed POST to a URL a client chose: a webhook's delivery attempt or an inbound payment's
 * approval request. The URL is checked again on the addresses its host resolves to now (a name can be
 * made to resolve elsewhere after it was saved), the body is signed with every secret that signs now
 * (Standard Webhooks), and the POST goes to the address that passed. The timeout covers the lookup.
 */
import { signedHeaders } from './webhook-signature';
import { inspectWebhookUrl } from './webhook-urls';
import type { WebhookUrlDeps } from './webhooks';

export interface WebhookRequest {
  readonly url: URL;
  /** The address to connect to: the one the URL rules just passed, whatever the name resolves to later. */
  readonly address: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
  /** Read the answer's body up to this many bytes (an approval request); else the status is the answer. */
  readonly maxAnswerBytes?: number;
}

/** The outcome of one POST: the status, or why there was none. */
export interface WebhookResponse {
  readonly status_code?: number;
  readonly duration_ms: number;
  /** Why no status came: the connection failed, in words... */
  readonly error?: string;
  /** ...or the receiver did not answer within the timeout. */
  readonly timedOut?: true;
  /** The body of the answer, when the request asked for it (maxAnswerBytes). */
  readonly answer?: string;
}

/** Posts to a receiver at the address given, follows no redirect, and gives up after the timeout. */
export interface WebhookTransport {
  post(request: WebhookRequest): Promise<WebhookResponse>;
}

export interface SignedPostDeps {
  readonly transport: WebhookTransport;
  /** The URL rules, applied again at each POST to the addresses the host resolves to then. */
  readonly urls: WebhookUrlDeps;
}

export interface SignedPost {
  readonly url: string;
  /** The message id (`webhook-id`): receivers dedupe on it. */
  readonly id: string;
  readonly body: string;
  readonly secrets: readonly string[];
  /** When it is sent: the signature's timestamp. */
  readonly sentAt: string;
  readonly timeoutMs: number;
  readonly userAgent: string;
  /** Read the receiver's answer, up to this many bytes (an approval); else only its status counts. */
  readonly maxAnswerBytes?: number;
}

/** What came back: the status (and the answer when asked for), or why there was none, in words. */
export interface SignedPostResult {
  readonly status_code?: number;
  readonly duration_ms: number;
  readonly error?: string;
  readonly answer?: string;
}

export async function signedPost(deps: SignedPostDeps, post: SignedPost): Promise<SignedPostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const check = await inspectWebhookUrl(post.url, deps.urls.urlPolicy, deps.urls.resolver);
  if (!check.allowed) return { duration_ms: elapsed(), error: `Not sent: the URL ${check.reason}` };
  const timestamp = Math.floor(Date.parse(post.sentAt) / 1000);
  const response = await deps.transport.post({
    url: check.url,
    address: check.addresses[0]!,
    headers: {
      'content-type': 'application/json',
      'user-agent': post.userAgent,
      ...signedHeaders(post.id, timestamp, post.body, post.secrets),
    },
    body: post.body,
    timeoutMs: Math.max(1, post.timeoutMs - (performance.now() - started)),
    ...(post.maxAnswerBytes === undefined ? {} : { maxAnswerBytes: post.maxAnswerBytes }),
  });
  // A timeout is said in the caller's terms, whatever share of it the lookup took.
  const error = response.timedOut ? `No answer within ${post.timeoutMs} ms` : response.error;
  return {
    ...(response.status_code === undefined ? {} : { status_code: response.status_code }),
    duration_ms: elapsed(),
    ...(error === undefined ? {} : { error }),
    ...(response.answer === undefined ? {} : { answer: response.answer }),
  };
}
