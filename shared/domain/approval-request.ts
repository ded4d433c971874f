/**
 * Asking a client's callback to accept or refuse an inbound payment (docs/inbound-approval.md): a
 * `payment.inbound.approval_requested` message signed as a webhook's, POSTed under the webhook URL
 * rules, and an answer `{"accept": true|false}` within the approval timeout. Anything else (no
 * answer in time, a refused connection, a status outside 2xx, a body that is not that JSON) is no
 * decision: the client's auto_approve_on_error decides, and the payment records why.
 */
import type { Approval } from '../schemas/payments';
import type { NewRecords } from './clock';
import { approvalSecretOwner, type StoredApprovalSettings } from './inbound-approval';
import { publicPayment, type StoredPayment } from './payments';
import { signedPost, type SignedPostDeps } from './signed-post';
import { signingSecrets, type SecretSealer } from './webhooks';

export const APPROVAL_REQUESTED = 'payment.inbound.approval_requested';
export const APPROVAL_USER_AGENT = 'breb-merchant-api-approvals/1';
/** `{"accept": false}` is 16 bytes: an answer of more than this is not one. */
export const MAX_APPROVAL_ANSWER_BYTES = 4096;

/** How the payment was decided, and why when the callback did not decide it. */
export interface ApprovalDecision {
  readonly approval: Exclude<Approval, 'NOT_REQUIRED'>;
  /** Why the callback's answer was not used (AUTO_APPROVED, AUTO_REJECTED). */
  readonly error?: string;
}

/** The decision when the callback gave none: the client's auto_approve_on_error, with the reason. */
export const fallbackDecision = (settings: Pick<StoredApprovalSettings, 'auto_approve_on_error'>, error: string) =>
  ({ approval: settings.auto_approve_on_error ? 'AUTO_APPROVED' : 'AUTO_REJECTED', error }) as const;

/** `accept` of an answer that is exactly a JSON object with a boolean `accept`; undefined otherwise. */
export function acceptOf(answer: string | undefined): boolean | undefined {
  try {
    const parsed: unknown = JSON.parse(answer ?? '');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    const { accept } = parsed as { accept?: unknown };
    return typeof accept === 'boolean' ? accept : undefined;
  } catch {
    return undefined;
  }
}

/** Where approval requests go out: the transport, the URL rules, and the callback's time to answer. */
export interface ApprovalCallbackDeps extends SignedPostDeps {
  /** APPROVAL_TIMEOUT_MS. */
  readonly timeoutMs: number;
  /** Opens the settings' sealed secrets to sign the request. */
  readonly sealer: Pick<SecretSealer, 'open'>;
}

/** Asks the client's callback about one PROCESSING payment: its decision, or the fallback's and why. */
export async function askApproval(
  deps: NewRecords & { readonly approvalCallback: ApprovalCallbackDeps },
  settings: StoredApprovalSettings,
  payment: StoredPayment,
): Promise<ApprovalDecision> {
  const sentAt = deps.clock.now();
  const id = deps.ids.newId();
  const body = JSON.stringify({ id, type: APPROVAL_REQUESTED, created_at: sentAt, data: publicPayment(payment) });
  const secrets = await deps.approvalCallback.sealer.open(settings.secrets, approvalSecretOwner(settings.tenant));
  const result = await signedPost(deps.approvalCallback, {
    url: settings.callback_url,
    id,
    body,
    secrets: signingSecrets(secrets, sentAt),
    sentAt,
    timeoutMs: deps.approvalCallback.timeoutMs,
    userAgent: APPROVAL_USER_AGENT,
    maxAnswerBytes: MAX_APPROVAL_ANSWER_BYTES,
  });
  if (result.error) return fallbackDecision(settings, result.error);
  const status = result.status_code!;
  if (status < 200 || status >= 300) return fallbackDecision(settings, `HTTP ${status}: not a 2xx answer`);
  const accept = acceptOf(result.answer);
  if (accept === undefined) {
    return fallbackDecision(settings, 'Malformed answer: expected {"accept": true} or {"accept": false}');
  }
  return { approval: accept ? 'ACCEPTED' : 'REFUSED' };
}
