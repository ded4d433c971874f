/**
 * The settlement job (docs/payments.md, "States"): each message `{"payment_id"}` asks the network
 * for its answer to a PENDING payment and writes it, or decides an inbound payment its request left
 * PROCESSING (docs/inbound-approval.md). Fed by the settlement queue: SQS with a delay on
 * AWS, the local runtime's queue locally (infra/local/local-queue.ts), with the same messages. A
 * failed message is reported, so the queue hands it again; answering is conditional on PENDING, so a
 * message seen twice settles once. A malformed message fails alone, and a batch running out of time
 * leaves its rest to the queue (shared/runtime/batch-items.ts).
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { systemNewRecords } from '../shared/domain/clock';
import { routedNetwork } from '../shared/domain/own-merchant-payments';
import { sandboxNetwork, settlePayment, type SettlementNetwork } from '../shared/domain/settlement';
import { connectorNetwork } from '../shared/domain/transfer-orders';
import { fetchConnector } from '../shared/data/network-connector';
import { networkSecrets } from '../shared/data/network-secret';
import { readNetwork, readParticipant } from '../shared/runtime/config';
import { dynamoApprovalSettingsStore } from '../shared/data/approval-settings-repository';
import { ownMerchantCreditPorts } from '../shared/data/inbound-payment-ports';
import { dynamoSettlementStore } from '../shared/data/payments-repository';
import { dynamoQrCodeStore } from '../shared/data/qrcodes-repository';
import { logger } from '../shared/http/logger';
import { processMessage, workerHandler } from '../shared/observability/worker-handler';
import { eachMessage, jsonMessage } from '../shared/runtime/batch-items';
import { workerOf } from './workers';

const { recordSeconds } = workerOf('settle-payment');

// The stage's network (NETWORK): the sandbox simulator answers at once; the sponsor bank's connector
// takes a signed transfer order and answers later on the status route. An inbound payment left PROCESSING is decided under its client's approval settings (shared/domain/receive-payment.ts).
// Read at each use, not once per process: the local runtime's tests start it again with another network.
const stageNetwork: SettlementNetwork = {
  answer(payment) {
    const network = readNetwork(process.env);
    if (network.kind === 'sandbox') return sandboxNetwork.answer(payment);
    return connectorNetwork({
      transport: fetchConnector,
      url: network.url,
      participant: readParticipant(process.env),
      secrets: () => networkSecrets(),
      nowSeconds: () => Math.floor(Date.now() / 1000),
    }).answer(payment);
  },
};

// A payment to one of our own merchants is answered by the payee's approval (its credit, once). Its
// ports are made at first use: the queues they name are set once the local runtime has started.
let routed: SettlementNetwork | undefined;
const network: SettlementNetwork = {
  answer: (payment) =>
    (routed ??= routedNetwork({ ...systemNewRecords, ...ownMerchantCreditPorts() }, stageNetwork)).answer(payment),
};

const deps = {
  ...systemNewRecords,
  payments: dynamoSettlementStore,
  network,
  approvalSettings: dynamoApprovalSettingsStore,
  qrCodes: dynamoQrCodeStore,
};

export const handler = workerHandler(
  logger,
  async (event: Pick<SQSEvent, 'Records'>, context: Context): Promise<SQSBatchResponse> =>
    eachMessage(event.Records, context, {
      recordMs: recordSeconds * 1000,
      parse: (body) => jsonMessage(body, 'payment_id'),
      handle: async ({ payment_id: paymentId }, record) => {
        const payment = await processMessage('settlement', record, () => settlePayment(deps, paymentId));
        logger.info('Settlement handled', { payment_id: paymentId, status: payment?.status ?? 'NOT_FOUND' });
      },
      failed: (record, error, message) =>
        logger.error(
          'Settlement failed: the queue hands it again',
          { message_id: record.messageId, ...(message ? { payment_id: message.payment_id } : {}) },
          error as Error,
        ),
      outOfTime: (left) =>
        logger.warn('Out of time: the queue hands the rest of the batch again', { messages: left.length }),
    }),
);
