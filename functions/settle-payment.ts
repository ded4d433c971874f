/**
 * The settlement job (docs/payments.md, "States"): each message `{"payment_id"}` asks the network
 * for its answer to a PENDING payment and writes it, or decides an inbound payment its request left
 * PROCESSING (docs/inbound-approval.md). Fed by the settlement queue: SQS with a delay on
 * AWS, the local runtime's queue locally (infra/local/local-queue.ts), with the same messages. A
 * failed message is reported, so the queue hands it again; answering is conditional on PENDING, so a
 * message seen twice settles once.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { systemNewRecords } from '../shared/domain/clock';
import {
  sandboxNetwork,
  settlePayment,
  type SettlementMessage,
  type SettlementNetwork,
} from '../shared/domain/settlement';
import { connectorNetwork } from '../shared/domain/transfer-orders';
import { fetchConnector } from '../shared/data/network-connector';
import { networkSecrets } from '../shared/data/network-secret';
import { readNetwork, readParticipant } from '../shared/runtime/config';
import { dynamoApprovalSettingsStore } from '../shared/data/approval-settings-repository';
import { dynamoSettlementStore } from '../shared/data/payments-repository';
import { dynamoQrCodeStore } from '../shared/data/qrcodes-repository';
import { logger } from '../shared/http/logger';
import { processMessage, workerHandler } from '../shared/observability/worker-handler';

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

const deps = {
  ...systemNewRecords,
  payments: dynamoSettlementStore,
  network: stageNetwork,
  approvalSettings: dynamoApprovalSettingsStore,
  qrCodes: dynamoQrCodeStore,
};

export const handler = workerHandler(logger, async (event: Pick<SQSEvent, 'Records'>): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const { payment_id: paymentId } = JSON.parse(record.body) as SettlementMessage;
    try {
      const payment = await processMessage('settlement', record, () => settlePayment(deps, paymentId));
      logger.info('Settlement handled', { payment_id: paymentId, status: payment?.status ?? 'NOT_FOUND' });
    } catch (error) {
      logger.error('Settlement failed: the queue hands it again', { payment_id: paymentId }, error as Error);
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
});
