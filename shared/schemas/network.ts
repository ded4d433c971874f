/**
 * The network connector's contract (docs/network.md): what the sponsor bank's connector sends us,
 * signed. Its own OpenAPI document describes it, apart from the clients' one.
 */
import { closedObject, matching, moneySchema, text, TIMESTAMP, UUID } from './common';
import { participantSchema } from './keys';
import { counterpartySchema, QR_CODE_REFERENCE } from './payments';

/** A Bre-B end-to-end id: 1 to 35 letters and digits. */
export const END_TO_END_ID = matching('^[A-Za-z0-9]{1,35}$', 'must be 1 to 35 letters and digits');

/** `POST /network/v1/transfers/{id}/status`: the network's answer to one of our transfer orders. */
export const transferStatusRequestSchema = closedObject(
  {
    status: { type: 'string', enum: ['SETTLED', 'REJECTED'] },
    reason: text(300),
  },
  ['status'],
);

/** The transfer as it stands once the status was applied (or had been already: `applied` false). */
export const transferStatusAnswerSchema = closedObject(
  {
    transfer_id: UUID,
    end_to_end_id: END_TO_END_ID,
    status: { type: 'string', enum: ['PENDING', 'SETTLED', 'REJECTED'] },
    applied: { type: 'boolean' },
  },
  ['transfer_id', 'end_to_end_id', 'status', 'applied'],
);

/** A payment's transfer order, as we POST it to the connector (signed; docs/network.md, "Transfer orders"). */
export const transferOrderSchema = closedObject(
  {
    type: { const: 'transfer.requested' },
    transfer_id: UUID,
    end_to_end_id: END_TO_END_ID,
    amount: moneySchema,
    debtor: closedObject(
      {
        customer_id: UUID,
        account_id: UUID,
        participant: participantSchema,
      },
      ['customer_id', 'account_id', 'participant'],
    ),
    creditor: counterpartySchema,
    description: text(140),
    qr_code_reference: QR_CODE_REFERENCE,
    created_at: TIMESTAMP,
  },
  ['type', 'transfer_id', 'end_to_end_id', 'amount', 'debtor', 'creditor', 'created_at'],
);
