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
import { sandboxNetwork, settlePayment, type SettlementMessage } from '../shared/domain/settlement';
import { dynamoApprovalSettingsStore } from '../shared/data/approval-settings-repository';
import { dynamoSettlementStore } from '../shared/data/payments-repository';
import { dynamoQrCodeStore } from '../shared/data/qrcodes-repository';
import { logger } from '../shared/http/logger';
import { processMessage, workerHandler } from '../shared/observability/worker-handler';

// The sandbox's network is the only one there is: every stage settles through it. An inbound payment
// left PROCESSING is decided under its client's approval settings (shared/domain/receive-payment.ts).
const deps = {
  ...systemNewRecords,
  payments: dynamoSettlementStore,
  network: sandboxNetwork,
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
