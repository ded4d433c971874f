/**
 * POST /network/v1/credits/{end_to_end_id}/reversals (docs/network.md, "Reversals"): the sponsor bank
 * takes back money it credited to one of our merchants, signed by the connector; once per
 * reversal_id. A reversal that leaves the merchant's account below zero is counted for the
 * NegativeBalances alarm: someone must recover that money from the merchant.
 */
import { systemNewRecords } from '../shared/domain/clock';
import { AppError } from '../shared/domain/errors';
import { reverseCredit } from '../shared/domain/reversals';
import { dynamoInboundPaymentStore } from '../shared/data/payments-repository';
import { dynamoReversalStore } from '../shared/data/reversals-repository';
import { logger } from '../shared/http/logger';
import { networkHandler } from '../shared/http/network-handler';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { NEGATIVE_BALANCES_METRIC } from '../shared/observability/metric-names';
import { metrics } from '../shared/observability/telemetry';
import type { ReversalRequest } from '../shared/schemas/network';
import { reversalRequest } from '../shared/schemas/generated/network';
import { verifyNetworkRequest } from './network-ports';

/** A Bre-B end-to-end id: anything else names no credit of ours. */
const END_TO_END_ID = /^[A-Za-z0-9]{1,35}$/;

export const handler = networkHandler<ReversalRequest, { end_to_end_id: string }>({
  name: 'reverseNetworkCredit',
  body: reversalRequest,
  checksOwnPath: true,
  verify: verifyNetworkRequest,
  handle: async ({ body, path }) => {
    if (!END_TO_END_ID.test(path.end_to_end_id)) {
      throw new AppError('NOT_FOUND', `No credit of ours has end_to_end_id ${path.end_to_end_id.slice(0, 40)}`);
    }
    const deps = { ...systemNewRecords, payments: dynamoInboundPaymentStore, reversals: dynamoReversalStore };
    const { answer, negativeBalance } = await reverseCredit(deps, path.end_to_end_id, body);
    logger.info('Credit reversed', {
      reversal_id: answer.reversal_id,
      payment_id: answer.payment_id,
      amount: answer.amount.value,
      reversed_amount: answer.reversed_amount.value,
      reason: body.reason,
    });
    if (negativeBalance) {
      // The service dimension alone, which the NegativeBalances alarm reads: a route's own metrics also
      // carry its route and status, a metric the alarm would not see.
      metrics.singleMetric().addMetric(NEGATIVE_BALANCES_METRIC, MetricUnit.Count, 1);
      logger.warn('A reversal left an account below zero', {
        account_id: negativeBalance.accountId,
        balance_cents: negativeBalance.balanceCents,
        payment_id: answer.payment_id,
      });
    }
    return answer;
  },
});
