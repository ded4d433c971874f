/**
 * The report worker (docs/reconciliation.md, "Reports"): each message `{"report_id"}` runs one report,
 * writing its CSV a page at a time to the report files (S3 on AWS, the data folder locally) and
 * marking it SUCCEEDED with its `report.ready` event, or FAILED (shared/domain/reports.ts). Fed by
 * the reports queue, and by the sweeper for a run that was lost. A run that throws is reported
 * failed, so the queue hands it again; a report already finished is left as it is.
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { systemNewRecords } from '../shared/domain/clock';
import { runReport } from '../shared/domain/reports';
import { dynamoAccountStore } from '../shared/data/accounts-repository';
import { dynamoCustomerStore } from '../shared/data/customers-repository';
import { dynamoLedgerStore } from '../shared/data/ledger-repository';
import { dynamoPaymentStore } from '../shared/data/payments-repository';
import { dynamoRefundStore } from '../shared/data/refunds-repository';
import { reportFiles } from '../shared/data/report-files';
import { dynamoReportStore } from '../shared/data/reports-repository';
import { logger } from '../shared/http/logger';
import { processMessage, workerHandler } from '../shared/observability/worker-handler';
import { eachMessage, jsonMessage } from '../shared/runtime/batch-items';
import { workerOf } from './workers';

const { recordSeconds, timeoutSeconds } = workerOf('run-report');

const deps = {
  ...systemNewRecords,
  reports: dynamoReportStore,
  sources: {
    payments: dynamoPaymentStore,
    accounts: dynamoAccountStore,
    ledger: dynamoLedgerStore,
    refunds: dynamoRefundStore,
    customers: dynamoCustomerStore,
  },
  files: reportFiles,
  // The run is the worker's until its invocation's time is over: the sweeper leaves it alone until then.
  runMs: timeoutSeconds * 1000,
};

export const handler = workerHandler(
  logger,
  async (event: Pick<SQSEvent, 'Records'>, context: Context): Promise<SQSBatchResponse> =>
    eachMessage(event.Records, context, {
      recordMs: recordSeconds * 1000,
      parse: (body) => jsonMessage(body, 'report_id'),
      handle: async ({ report_id: reportId }, record) => {
        const report = await processMessage('reports', record, () => runReport(deps, reportId));
        logger.info('Report run', {
          report_id: reportId,
          status: report?.status ?? 'NOT_FOUND',
          ...(report?.row_count === undefined ? {} : { rows: report.row_count }),
        });
      },
      failed: (record, error, message) =>
        logger.error(
          'Report run failed: the queue hands it again',
          { message_id: record.messageId, ...(message ? { report_id: message.report_id } : {}) },
          error as Error,
        ),
      outOfTime: (left) =>
        logger.warn('Out of time: the queue hands the rest of the batch again', { messages: left.length }),
    }),
);
