/**
 * The settlement job (docs/payments.md, "States"): each message `{"payment_id"}` asks the network
 * for its answer to a PENDING payment and writes it (a `{"refund_id"}` message, a refund's:
 * docs/refunds.md), or decides an inbound payment its request left
 * PROCESSING (docs/inbound-approval.md). Fed by the settlement queue: SQS with a delay on
 * AWS, the local runtime's queue locally (infra/local/local-queue.ts), with the same messages. A
 * failed message is reported, so the queue hands it again; answering is conditional on PENDING, so a
 * message seen twice settles once. A malformed message fails alone, and a batch running out of time
 * leaves its rest to the queue (shared/runtime/batch-items.ts).
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { systemNewRecords } from '../shared/domain/clock';
import { routedNetwork } from '../shared/domain/own-merchant-payments';
import { sandboxNetwork, settlePayment, type ReviewPolicy, type SettlementNetwork } from '../shared/domain/settlement';
import { connectorNetwork } from '../shared/domain/transfer-orders';
import {
  readNetwork,
  readParticipant,
  readTransferInquiryAfterMs,
  readTransferReviewAfterMs,
} from '../shared/runtime/config';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { TRANSFERS_IN_REVIEW_METRIC } from '../shared/observability/metric-names';
import { metrics } from '../shared/observability/telemetry';
import { dynamoApprovalSettingsStore } from '../shared/data/approval-settings-repository';
import { ownMerchantCreditPorts } from '../shared/data/inbound-payment-ports';
import { dynamoSettlementStore } from '../shared/data/payments-repository';
import { dynamoQrCodeWrites } from '../shared/data/qrcodes-repository';
import { logger } from '../shared/http/logger';
import { processMessage, workerHandler } from '../shared/observability/worker-handler';
import { eachMessage, jsonMessage } from '../shared/runtime/batch-items';
import { settleRefund } from '../shared/domain/refund-settlement';
import { dynamoRefundWrites } from '../shared/data/refunds-repository';
import { dynamoAccountWrites } from '../shared/data/accounts-repository';
import { connectorClient, isPublishedOrder } from './network-ports';
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
      ...connectorClient(network.url),
      participant: readParticipant(process.env),
      isPublishedOrder,
      inquiryAfterMs: readTransferInquiryAfterMs(),
      nowMs: Date.now,
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
  qrCodes: dynamoQrCodeWrites,
};

// A refund is an outbound transfer to the payment's payer, through the same network; to one of our own
// merchants, a credit of its account (docs/refunds.md).
const refundDeps = {
  ...systemNewRecords,
  refunds: dynamoRefundWrites,
  payments: dynamoSettlementStore,
  network: stageNetwork,
  accounts: dynamoAccountWrites,
};

/**
 * On a connector stage, a transfer to another participant left unanswered goes to review past
 * TRANSFER_REVIEW_AFTER_MS; the sandbox answers at once, and our own merchants' payments never reach
 * the network.
 */
function stageReview(): { readonly review?: ReviewPolicy } {
  if (readNetwork(process.env).kind !== 'connector') return {};
  const { nit } = readParticipant(process.env);
  return {
    review: {
      afterMs: readTransferReviewAfterMs(),
      applies: (transfer) => transfer.counterparty.participant.identification_number !== nit,
    },
  };
}

/** Counts a transfer still in review: the alarm stays raised while one is (TRANSFERS_IN_REVIEW_METRIC). */
function countIfInReview(transfer: { readonly status: string; readonly review?: unknown } | undefined): void {
  if (transfer?.status === 'PENDING' && transfer.review)
    metrics.addMetric(TRANSFERS_IN_REVIEW_METRIC, MetricUnit.Count, 1);
}

/** A message of the settlement queue: a payment's job `{"payment_id"}`, or a refund's `{"refund_id"}`. */
function settlementMessage(body: string): { readonly payment_id: string } | { readonly refund_id: string } {
  const parsed: unknown = JSON.parse(body);
  if (typeof parsed === 'object' && parsed !== null && 'refund_id' in parsed) return jsonMessage(body, 'refund_id');
  return jsonMessage(body, 'payment_id');
}

export const handler = workerHandler(
  logger,
  async (event: Pick<SQSEvent, 'Records'>, context: Context): Promise<SQSBatchResponse> =>
    eachMessage(event.Records, context, {
      recordMs: recordSeconds * 1000,
      parse: settlementMessage,
      handle: async (message, record) => {
        if ('refund_id' in message) {
          const refundId = message.refund_id;
          const refund = await processMessage('settlement', record, () =>
            settleRefund({ ...refundDeps, ...stageReview() }, refundId),
          );
          countIfInReview(refund);
          logger.info('Refund settlement handled', { refund_id: refundId, status: refund?.status ?? 'NOT_FOUND' });
          return;
        }
        const paymentId = message.payment_id;
        const payment = await processMessage('settlement', record, () =>
          settlePayment({ ...deps, ...stageReview() }, paymentId),
        );
        countIfInReview(payment);
        logger.info('Settlement handled', { payment_id: paymentId, status: payment?.status ?? 'NOT_FOUND' });
      },
      failed: (record, error, message) =>
        logger.error('Settlement failed: the queue hands it again', {
          message_id: record.messageId,
          ...message,
          error,
        }),
      outOfTime: (left) =>
        logger.warn('Out of time: the queue hands the rest of the batch again', { messages: left.length }),
    }),
);
