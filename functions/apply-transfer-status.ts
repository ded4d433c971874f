/**
 * POST /network/v1/transfers/{id}/status (docs/network.md): the network's answer to one of our
 * transfer orders (a payment's or a refund's), signed by the connector. Applied once: a transfer already answered is answered
 * again as it stands; a transfer we never ordered is 404.
 */
import { AppError } from '../shared/domain/errors';
import { systemNewRecords } from '../shared/domain/clock';
import { applyTransferStatus, type TransferStatus } from '../shared/domain/transfer-orders';
import { dynamoSettlementStore } from '../shared/data/payments-repository';
import { dynamoRefundWrites } from '../shared/data/refunds-repository';
import { logger } from '../shared/http/logger';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { CONNECTOR_METRICS } from '../shared/observability/metric-names';
import { metrics } from '../shared/observability/telemetry';
import { networkHandler } from '../shared/http/network-handler';
import { readParticipant } from '../shared/runtime/config';
import { transferStatusRequest } from '../shared/schemas/generated/network';
import { verifyNetworkRequest } from './network-ports';

export const handler = networkHandler<TransferStatus, { id: string }>({
  name: 'applyTransferStatus',
  body: transferStatusRequest,
  verify: verifyNetworkRequest,
  handle: async ({ body, path }) => {
    const deps = {
      ...systemNewRecords,
      payments: dynamoSettlementStore,
      refunds: dynamoRefundWrites,
      participant: readParticipant(process.env),
      // With the service dimension alone, as the connector's own metrics: what its alarm reads.
      callbackLatency: {
        record: (ms: number) =>
          metrics.singleMetric().addMetric(CONNECTOR_METRICS.callbackLatency, MetricUnit.Milliseconds, ms),
      },
    };
    const answer = await applyTransferStatus(deps, path.id, body);
    if (!answer) throw new AppError('NOT_FOUND', 'No transfer order of ours has this id');
    logger.info('Transfer status', {
      payment_id: path.id,
      status: body.status,
      applied: answer.applied,
      reason: body.reason,
    });
    return answer;
  },
});
