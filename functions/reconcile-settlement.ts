/**
 * The reconciliation worker (docs/reconciliation.md, "Against the bank"): each message `{"date"}`
 * matches the day's settlement file with our payments and refunds, writes each client's breaks and
 * result with its `reconciliation.completed` event, and completes the file
 * (shared/domain/reconciliations.ts). Fed by the reconciliations queue, and by the sweeper for a run
 * that was lost. It counts the breaks it found (SETTLEMENT_BREAKS_METRIC): the SettlementBreaks alarm
 * watches them. A run that throws is reported failed, so the queue hands it again.
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { systemClock } from '../shared/domain/clock';
import { runReconciliation } from '../shared/domain/reconciliations';
import {
  dynamoAccountDirectory,
  dynamoReconciliationWrites,
  dynamoTransferSource,
} from '../shared/data/reconciliations-repository';
import { dynamoSettledDay } from '../shared/data/settled-transfers';
import { settlementFiles } from '../shared/data/settlement-files';
import { logger } from '../shared/http/logger';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { SETTLEMENT_BREAKS_METRIC } from '../shared/observability/metric-names';
import { metrics } from '../shared/observability/telemetry';
import { processMessage, workerHandler } from '../shared/observability/worker-handler';
import { eachMessage, jsonMessage } from '../shared/runtime/batch-items';
import { readParticipant } from '../shared/runtime/config';
import { workerOf } from './workers';

const { recordSeconds, timeoutSeconds } = workerOf('reconcile-settlement');

const deps = () => ({
  store: dynamoReconciliationWrites,
  files: settlementFiles,
  transfers: dynamoTransferSource,
  accounts: dynamoAccountDirectory,
  settled: dynamoSettledDay,
  // Read at each run: the local runtime's tests start it again with other settings.
  ownNit: readParticipant(process.env).nit,
  clock: systemClock,
  // The file is the run's until its invocation's time is over: the sweeper leaves it alone until then.
  runMs: timeoutSeconds * 1000,
});

export const handler = workerHandler(
  logger,
  async (event: Pick<SQSEvent, 'Records'>, context: Context): Promise<SQSBatchResponse> =>
    eachMessage(event.Records, context, {
      recordMs: recordSeconds * 1000,
      parse: (body) => jsonMessage(body, 'date'),
      handle: async ({ date }, record) => {
        const report = await processMessage('reconciliations', record, () => runReconciliation(deps(), date));
        if (!report) {
          logger.info('Reconciliation: nothing to run', { date });
          return;
        }
        // Published by every completed run, 0 included; a run of a replaced file counts nothing.
        if (report.outcome === 'completed') {
          metrics.addMetric(SETTLEMENT_BREAKS_METRIC, MetricUnit.Count, report.breaks);
        }
        const summary = { ...report };
        if (report.breaks > 0) logger.warn('Reconciliation found breaks', summary);
        else logger.info('Reconciliation run', summary);
      },
      failed: (record, error, message) =>
        logger.error('Reconciliation failed: the queue hands it again', {
          message_id: record.messageId,
          ...(message ? { date: message.date } : {}),
          error,
        }),
      outOfTime: (left) =>
        logger.warn('Out of time: the queue hands the rest of the batch again', { messages: left.length }),
    }),
);
