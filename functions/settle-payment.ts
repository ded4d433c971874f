/**
 * The settlement job (docs/payments.md, "States"): each message `{"payment_id"}` asks the network
 * for its answer to a PENDING payment and writes it. Fed by the settlement queue: SQS with a delay on
 * AWS, the local runtime's queue locally (infra/local/local-queue.ts), with the same messages. A
 * failed message is reported, so the queue hands it again; answering is conditional on PENDING, so a
 * message seen twice settles once.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { systemNewRecords } from '../shared/domain/clock';
import { sandboxNetwork, settlePayment, type SettlementMessage } from '../shared/domain/settlement';
import { dynamoSettlementStore } from '../shared/data/payments-repository';
import { logger } from '../shared/http/logger';
import { workerHandler } from '../shared/observability/worker-handler';

// The sandbox's network is the only one there is: every stage settles through it.
const deps = { ...systemNewRecords, payments: dynamoSettlementStore, network: sandboxNetwork };

export const handler = workerHandler(logger, async (event: Pick<SQSEvent, 'Records'>): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const { payment_id: paymentId } = JSON.parse(record.body) as SettlementMessage;
    try {
      const payment = await settlePayment(deps, paymentId);
      logger.info('Settlement handled', { payment_id: paymentId, status: payment.status });
    } catch (error) {
      logger.error('Settlement failed: the queue hands it again', { payment_id: paymentId }, error as Error);
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
});
