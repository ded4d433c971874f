/**
 * The settlement job (docs/payments.md, "States"): each message `{"payment_id"}` asks the network
 * for its answer to a PENDING payment and writes it. Fed by the settlement queue: SQS with a delay on
 * AWS, the local runtime's timers locally (infra/local/settlement-queue.ts), with the same messages.
 * A failed message is retried by the queue; answering is conditional on PENDING, so a message seen
 * twice settles once.
 */
import type { SQSEvent } from 'aws-lambda';
import { systemNewRecords } from '../shared/domain/clock';
import {
  sandboxNetwork,
  settlePayment,
  type SettlementMessage,
  type SettlementQueue,
} from '../shared/domain/settlement';
import { dynamoSettlementStore } from '../shared/data/payments-repository';

// The sandbox's network is the only one there is: every stage settles through it.
const deps = { ...systemNewRecords, payments: dynamoSettlementStore, network: sandboxNetwork };

/**
 * The settlement of a process without a settlement queue (a Lambda function, until SQS carries the
 * jobs on AWS): the job runs at once, in the request that scheduled it, which still answers PENDING
 * and whose retry runs it again. The sandbox's delay applies only where a queue is installed.
 */
export const settleInRequest: SettlementQueue = {
  async schedule(paymentId) {
    await settlePayment(deps, paymentId);
  },
};

export const handler = async (event: Pick<SQSEvent, 'Records'>): Promise<void> => {
  for (const record of event.Records) {
    const { payment_id: paymentId } = JSON.parse(record.body) as SettlementMessage;
    await settlePayment(deps, paymentId);
  }
};
