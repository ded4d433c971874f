/**
 * POST /v1/payments naming a recipient (`recipient_id`) in place of a resolution (docs/payments.md,
 * Paying a recipient), and the choice between the two.
 *
 * A recipient was saved from a resolution that may be months old, and a key can change hands: it is
 * resolved again at payment time (one fresh read of its directory entry) and paid only while it
 * still names the payee the recipient saved. The payment is then exactly a payment of a resolution:
 * a fresh resolution of the key, made here, is handed to the same flow (payResolved), whose one
 * transaction stores it, marks it used by this payment and moves the money. So the payment keeps
 * every guarantee of a resolution's (one transaction, balances and movements, events, settlement),
 * a refusal writes nothing at all (not even the resolution), and GET /v1/resolutions/{id} shows what
 * the key resolved to when it was paid. The other ways were worse: storing the resolution first
 * (resolve-key's way) leaves an unused one behind whenever the payment is refused, and a payment
 * flow of its own for recipients would repeat every rule of the resolution's.
 *
 * A recipient is paid many times, so nothing in the body makes a payment unique: the request's
 * Idempotency-Key does, and paying a recipient without one is refused. The key names the payment's
 * resolution (its id is derived from the client and the key), and that resolution is the guard of
 * one payment, as a client's resolution is: a retry finds the payment its key made (also after the
 * key's 24 hours, after a crash between the commit and the answer, or when the retry races the
 * first), answers it and schedules its settlement again, and never pays twice.
 */
import type { CreatePaymentRequest } from '../schemas/payments';
import { uuidOf } from './clock';
import {
  activeEntryOf,
  newResolution,
  type DirectoryEntry,
  type DirectoryLookup,
  type ResolutionStore,
} from './directory';
import { AppError, invalidField } from './errors';
import {
  answerAgain,
  paymentIntent,
  payResolution,
  payResolved,
  readPayer,
  type PayResolutionDeps,
  type PaymentDeps,
} from './pay-resolution';
import type { PublicPayment } from './payments';
import { readTogether } from './read-together';
import { getOwnRecipient, type RecipientPayee, type RecipientStore } from './recipients';

export interface PayRecipientDeps extends PaymentDeps {
  readonly resolutions: Pick<ResolutionStore, 'get'>;
  readonly recipients: Pick<RecipientStore, 'get'>;
  /** The stage's directory, as resolve-key reads it: the network's on a connector stage. */
  readonly directory: DirectoryLookup;
}

/** The id of the resolution a recipient's payment under this client's Idempotency-Key makes. */
export const keyedResolutionId = (tenant: string, idempotencyKey: string): string =>
  uuidOf(JSON.stringify(['recipient-payment', tenant, idempotencyKey]));

/**
 * The key still names the payee saved: the same owner (identification type and number) and the same
 * account at the same participant. Names may change (a business renamed); the owner and the
 * account may not.
 */
export const samePayee = (saved: RecipientPayee, now: DirectoryEntry): boolean =>
  saved.owner.identification_type === now.owner.identification_type &&
  saved.owner.identification_number === now.owner.identification_number &&
  saved.participant.identification_number === now.participant.identification_number &&
  saved.account.account_number === now.account.account_number &&
  saved.account.account_type === now.account.account_type;

/**
 * Pays one of the customer's recipients, once per Idempotency-Key: a key that already paid answers
 * that payment for the same request (409 IDEMPOTENCY_KEY_REUSED for another). Unknown recipient 404,
 * another client's 403, another customer's 400 on recipient_id; then the payer (readPayer); the key
 * no longer resolving 404 KEY_NOT_FOUND (as resolve-key); the key now naming another owner or account
 * 409 RECIPIENT_KEY_CHANGED; then the write of any payment (payResolved).
 */
export async function payRecipient(
  deps: PayRecipientDeps,
  tenant: string,
  request: CreatePaymentRequest & { readonly recipient_id: string },
  idempotencyKey: string,
): Promise<PublicPayment> {
  const intent = { ...paymentIntent(request, deps.maxPaymentCents), recipientId: request.recipient_id.toLowerCase() };
  const resolutionId = keyedResolutionId(tenant, idempotencyKey);
  // Read together (one round trip); a retry of a payment made reads the recipient and payer for nothing.
  const [earlierRead, recipientRead, payerRead] = await readTogether(
    deps.resolutions.get(resolutionId),
    getOwnRecipient(deps.recipients, tenant, intent.recipientId),
    readPayer(deps, tenant, intent),
  );
  const earlier = earlierRead();
  if (earlier?.payment_id) return answerAgain(deps, earlier.payment_id, intent);

  const recipient = recipientRead();
  if (recipient.customer_id !== intent.customerId) {
    throw invalidField('recipient_id', 'is a recipient of another customer of the client');
  }
  // Checked before the directory is asked: a payer who cannot pay spends none of the network's lookups.
  const payer = payerRead();
  // Asked for the paying customer, as resolve-key asks (on a connector stage, the network's directory).
  const found = await deps.directory.find(recipient.key, {
    identification_type: payer.customer.identification_type,
    identification_number: payer.customer.identification_number,
  });
  const entry = activeEntryOf(found, recipient.key);
  if (!samePayee(recipient, entry)) {
    throw new AppError(
      'RECIPIENT_KEY_CHANGED',
      `The ${recipient.key.key_type} key of recipient ${recipient.id} now names another owner or account: ` +
        'resolve the key, and save the recipient again if it is the payee you mean',
      { recipient_id: recipient.id },
    );
  }
  const resolution = { ...newResolution(deps, tenant, recipient.customer_id, entry), id: resolutionId };
  return payResolved(deps, tenant, intent, resolution, payer, true);
}

export type CreatePaymentDeps = PayResolutionDeps & PayRecipientDeps;

/**
 * POST /v1/payments: exactly one of resolution_id and recipient_id (400 otherwise); a recipient's
 * payment only with an Idempotency-Key (`idempotencyKey`; 400 IDEMPOTENCY_KEY_REQUIRED), checked
 * before anything is read.
 */
export async function createPayment(
  deps: CreatePaymentDeps,
  tenant: string,
  request: CreatePaymentRequest,
  idempotencyKey: string | undefined,
): Promise<PublicPayment> {
  const { resolution_id: resolutionId, recipient_id: recipientId } = request;
  if (resolutionId !== undefined && recipientId !== undefined) {
    throw invalidField('recipient_id', 'cannot be sent with resolution_id: send one of them');
  }
  if (resolutionId !== undefined) return payResolution(deps, tenant, { ...request, resolution_id: resolutionId });
  if (recipientId === undefined) throw invalidField('resolution_id', 'or recipient_id is required');
  if (idempotencyKey === undefined) {
    throw new AppError(
      'IDEMPOTENCY_KEY_REQUIRED',
      'Paying a recipient needs an Idempotency-Key: the key, not a resolution, makes the payment unique',
      { errors: [{ field: 'Idempotency-Key', message: 'is required to pay a recipient' }] },
    );
  }
  return payRecipient(deps, tenant, { ...request, recipient_id: recipientId }, idempotencyKey);
}
