/**
 * POST /sandbox/payments/inbound (docs/sandbox.md): the sandbox's shopper, a person at another
 * participant, pays a key of one of the client's merchants, so a client can see an inbound payment
 * arrive, be approved or refused by its callback (shared/domain/receive-payment.ts), and be credited.
 */
import type { SandboxInboundPaymentRequest } from '../schemas/payments';
import { newRecord } from './clock';
import type { DirectoryStore } from './directory';
import { AppError } from './errors';
import { parseKey } from './key-formats';
import { paymentAmountCents, publicPayment, type ResolvedCounterparty, type PublicPayment } from './payments';
import { receivePayment, type ReceivePaymentDeps } from './receive-payment';

/** Who pays in the sandbox: the person of the sandbox directory, at Banco Ejemplo. */
export const SANDBOX_SHOPPER: ResolvedCounterparty = {
  owner: {
    identification_type: 'CC',
    identification_number: '1020304050',
    type: 'PERSON',
    first_name: 'Ana',
    second_name: 'María',
    first_last_name: 'Gómez',
    second_last_name: 'Pérez',
  },
  participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
  account: { account_number: '4001002003', account_type: 'SAVINGS' },
};

export interface SandboxInboundDeps extends ReceivePaymentDeps {
  readonly directory: Pick<DirectoryStore, 'get'>;
}

/**
 * Pays the client's merchant that owns the key: 404 KEY_NOT_FOUND unless the key is an ACTIVE key of
 * one of the client's merchants (another client's key is not told apart from an unknown one). Answers
 * the INBOUND payment once decided: SETTLED or REJECTED.
 */
export async function receiveSandboxInboundPayment(
  deps: SandboxInboundDeps,
  tenant: string,
  request: SandboxInboundPaymentRequest,
): Promise<PublicPayment> {
  const key = parseKey(request.key);
  const amountCents = paymentAmountCents('amount.value', request.amount.value);
  const entry = await deps.directory.get(key);
  const stored =
    entry?.status === 'ACTIVE' && entry.tenant === tenant && entry.key_id
      ? await deps.keys.get(entry.key_id)
      : undefined;
  if (!stored || stored.tenant !== tenant) {
    throw new AppError('KEY_NOT_FOUND', `No ACTIVE ${key.key_type} key of your merchants matches this value`);
  }
  const payment = await receivePayment(
    deps,
    {
      ...newRecord(deps, tenant),
      customer_id: stored.customer_id,
      account_id: stored.account_id,
      direction: 'INBOUND',
      amount_cents: amountCents,
      ...(request.description === undefined ? {} : { description: request.description }),
      counterparty: SANDBOX_SHOPPER,
    },
    stored.id,
  );
  return publicPayment(payment);
}
