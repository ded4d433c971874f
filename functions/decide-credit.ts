/**
 * The credit decision job (docs/inbound-approval.md): each message `{"payment_id"}` decides an inbound
 * payment its request left PROCESSING, under its client's approval settings, as a callback that gave
 * no answer would be (shared/domain/receive-payment.ts). Fed by the credit decisions queue, apart from
 * the settlement queue's transfer orders: a connector slow to take them does not delay a merchant's
 * credit, and this function neither calls the network nor holds its secret. A failed message is
 * reported, so the queue hands it again; deciding is conditional on PROCESSING, so a message seen
 * twice decides once. A malformed message fails alone, and a batch running out of time leaves its rest
 * to the queue (shared/runtime/batch-items.ts).
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { systemNewRecords } from '../shared/domain/clock';
import { runDecisionJob } from '../shared/domain/receive-payment';
import { dynamoApprovalSettingsStore } from '../shared/data/approval-settings-repository';
import { dynamoInboundPaymentStore } from '../shared/data/payments-repository';
import { dynamoQrCodeWrites } from '../shared/data/qrcodes-repository';
import { logger } from '../shared/http/logger';
import { processMessage, workerHandler } from '../shared/observability/worker-handler';
import { eachMessage, jsonMessage } from '../shared/runtime/batch-items';
import { workerOf } from './workers';

const { recordSeconds } = workerOf('decide-credit');

const deps = {
  ...systemNewRecords,
  payments: dynamoInboundPaymentStore,
  approvalSettings: dynamoApprovalSettingsStore,
  qrCodes: dynamoQrCodeWrites,
};

export const handler = workerHandler(
  logger,
  async (event: Pick<SQSEvent, 'Records'>, context: Context): Promise<SQSBatchResponse> =>
    eachMessage(event.Records, context, {
      recordMs: recordSeconds * 1000,
      parse: (body) => jsonMessage(body, 'payment_id'),
      handle: async ({ payment_id: paymentId }, record) => {
        const payment = await processMessage('creditDecisions', record, () => runDecisionJob(deps, paymentId));
        logger.info('Credit decision handled', { payment_id: paymentId, status: payment?.status ?? 'NOT_FOUND' });
      },
      failed: (record, error, message) =>
        logger.error('Credit decision failed: the queue hands it again', {
          message_id: record.messageId,
          ...message,
          error,
        }),
      outOfTime: (left) =>
        logger.warn('Out of time: the queue hands the rest of the batch again', { messages: left.length }),
    }),
);
