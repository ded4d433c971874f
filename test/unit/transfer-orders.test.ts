/**
 * The orders we send the connector (docs/network.md, "Transfer orders" and "Returns"), checked before
 * they leave: the connector adapter production runs, with the stage's check (the generated validator
 * of the schema the connector's OpenAPI document publishes), over a transport that records what would
 * go out. A payment is a TRANSFER, a refund of a credit from the network a RETURN of that credit; an
 * order the published schema does not describe is never sent, and ends REJECTED NETWORK_REFUSED_ORDER.
 */
import { jest } from '@jest/globals';
import type { ConnectorAnswer, ConnectorTransport } from '../../shared/domain/connector';
import { generateSigningKey } from '../../shared/domain/message-signatures';
import type { StoredPayment } from '../../shared/domain/payments';
import { refundTransfer } from '../../shared/domain/refund-settlement';
import type { StoredRefund } from '../../shared/domain/refunds';
import type { NetworkTransfer } from '../../shared/domain/settlement';
import { connectorNetwork, endToEndIdOf, transferOrderOf } from '../../shared/domain/transfer-orders';
import { isPublishedOrder } from '../../functions/network-ports';

const PARTICIPANT = { name: 'Banco Patrocinador S.A.', nit: '860000001' };
const CREATED = '2026-01-01T00:00:00.000Z';
const signingKey = generateSigningKey('test-1');

/** A connector that takes every order (202), recording the bodies sent to it. */
function recordingConnector() {
  const sent: Record<string, any>[] = [];
  const transport: ConnectorTransport = {
    send: async (request): Promise<ConnectorAnswer> => {
      sent.push(JSON.parse(request.body));
      return { status: 202, body: '{}' };
    },
  };
  const network = connectorNetwork({
    transport,
    url: 'http://connector.test',
    signingKey: async () => signingKey,
    nowSeconds: () => Math.floor(Date.parse(CREATED) / 1000),
    participant: PARTICIPANT,
    isPublishedOrder,
    // Never asked for here: every transfer is new.
    inquiryAfterMs: Number.MAX_SAFE_INTEGER,
    nowMs: () => Date.parse(CREATED),
  });
  return { sent, network };
}

/** Ana María at Banco Ejemplo, as a key's resolution shows her: all of it, her account too. */
const RESOLVED = {
  key: { key_type: 'PHONE', key_value: '3001234567' },
  owner: { identification_type: 'CC', identification_number: '1020304050', type: 'PERSON', first_name: 'Ana' },
  participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
  account: { account_number: '4001002003', account_type: 'SAVINGS' },
} as const;

const payment: StoredPayment = {
  id: '0b8c1f6e-6f7a-4c59-9a51-000000000001',
  tenant: 'client-a',
  customer_id: '1b8c1f6e-6f7a-4c59-9a51-000000000002',
  account_id: '2b8c1f6e-6f7a-4c59-9a51-000000000003',
  direction: 'OUTBOUND',
  status: 'PENDING',
  amount_cents: 12_050,
  description: 'Arriendo',
  counterparty: RESOLVED,
  created_at: CREATED,
  updated_at: CREATED,
};

/** A refund of a credit from the network: its payer as the credit named it, no account. */
const refund: StoredRefund = {
  id: '3b8c1f6e-6f7a-4c59-9a51-000000000004',
  tenant: 'client-a',
  payment_id: '4b8c1f6e-6f7a-4c59-9a51-000000000005',
  customer_id: payment.customer_id,
  account_id: payment.account_id,
  amount_cents: 2_500,
  reason: 'Producto devuelto',
  status: 'PENDING',
  counterparty: {
    owner: { identification_type: 'CC', identification_number: '1020304050', name: 'Ana María Gómez Pérez' },
    participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
  },
  created_at: CREATED,
  updated_at: CREATED,
};

/** What `act` writes to stderr (warnings and errors), parsed. */
async function errorsLogged(act: () => Promise<unknown>): Promise<Record<string, any>[]> {
  const lines: string[] = [];
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => lines.push(String(chunk)) > 0);
  try {
    await act();
  } finally {
    err.mockRestore();
  }
  return lines.map((line) => JSON.parse(line) as Record<string, any>);
}

describe('orders of both kinds, as the published schema describes them', () => {
  it("a payment's order is a TRANSFER: the creditor as resolved, its account too; sent", async () => {
    const { sent, network } = recordingConnector();
    expect(await network.answer(payment)).toBeUndefined();
    expect(sent).toEqual([
      {
        type: 'transfer.requested',
        kind: 'TRANSFER',
        transfer_id: payment.id,
        end_to_end_id: endToEndIdOf(payment.id),
        amount: { value: '120.50', currency: 'COP' },
        debtor: {
          customer_id: payment.customer_id,
          account_id: payment.account_id,
          participant: { name: PARTICIPANT.name, identification_number: PARTICIPANT.nit },
        },
        creditor: RESOLVED,
        description: 'Arriendo',
        created_at: CREATED,
      },
    ]);
  });

  it('a refund of a network credit is a RETURN of that credit, to its debtor without an account; sent', async () => {
    const { sent, network } = recordingConnector();
    expect(await network.answer(refundTransfer(refund, 'E2E20260101ANA'))).toBeUndefined();
    expect(sent).toEqual([
      {
        type: 'transfer.requested',
        kind: 'RETURN',
        transfer_id: refund.id,
        end_to_end_id: endToEndIdOf(refund.id),
        original_end_to_end_id: 'E2E20260101ANA',
        amount: { value: '25.00', currency: 'COP' },
        debtor: {
          customer_id: refund.customer_id,
          account_id: refund.account_id,
          participant: { name: PARTICIPANT.name, identification_number: PARTICIPANT.nit },
        },
        creditor: refund.counterparty,
        description: 'Producto devuelto',
        created_at: CREATED,
      },
    ]);
    // Whatever the refunded payment's payer record holds beyond, the return names no account nor key.
    const order = transferOrderOf(refundTransfer({ ...refund, counterparty: RESOLVED }, 'E2E20260101ANA'), PARTICIPANT);
    expect(order.creditor).toEqual({ owner: RESOLVED.owner, participant: RESOLVED.participant });
    expect(isPublishedOrder(order)).toBe(true);
  });
});

describe('an order the published schema does not describe: never sent, REJECTED NETWORK_REFUSED_ORDER', () => {
  const cases: [string, NetworkTransfer][] = [
    // A refund of a payment that came by no credit: nothing to return.
    ['a RETURN naming no original credit', refundTransfer(refund, undefined)],
    ['a RETURN whose original is not an end-to-end id', refundTransfer(refund, 'E2E-not-letters')],
    // A payee without its account: the network could not credit it.
    ['a TRANSFER whose creditor has no account', { ...payment, counterparty: refund.counterparty }],
    ['a description too long', { ...payment, description: 'x'.repeat(141) }],
  ];

  it.each(cases)('%s', async (_, transfer) => {
    const { sent, network } = recordingConnector();
    const logged = await errorsLogged(async () =>
      expect(await network.answer(transfer)).toEqual({ status: 'REJECTED', reason: 'NETWORK_REFUSED_ORDER' }),
    );
    expect(sent).toEqual([]);
    // Our bug, logged as one: which transfer, and what the schema says of it.
    expect(logged).toEqual([
      expect.objectContaining({
        level: 'ERROR',
        message: "Transfer order not sent: it is not the published schema's",
        transfer_id: transfer.id,
        errors: expect.arrayContaining([expect.any(String)]),
      }),
    ]);
  });
});
