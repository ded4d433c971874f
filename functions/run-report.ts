/**
 * The report worker (docs/reconciliation.md, "Reports"): each message `{"report_id"}` runs one report,
 * writing its CSV a page at a time to the report files (S3 on AWS, the data folder locally) and
 * marking it SUCCEEDED with its `report.ready` event, or FAILED (shared/domain/report-runs.ts). Fed
 * by the reports queue, and by the sweeper for a run that was lost. Each run holds the report under a
 * lease named for this invocation and its message: a message handed while another run's lease is
 * live does nothing (and is not a failure: the live run finishes the report). A run that throws gives
 * its lease back and is reported failed, so the queue hands it again; a report already finished is
 * left as it is.
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { systemNewRecords } from '../shared/domain/clock';
import { runReport } from '../shared/domain/report-runs';
import { dynamoAccountWrites } from '../shared/data/accounts-repository';
import { dynamoCustomerWrites } from '../shared/data/customers-repository';
import { dynamoLedgerStore } from '../shared/data/ledger-repository';
import { dynamoPaymentReads } from '../shared/data/payment-reads';
import { dynamoRefundStore } from '../shared/data/refunds-repository';
import { reportWriters } from '../shared/data/report-files';
import { dynamoReportWrites } from '../shared/data/reports-repository';
import { logger } from '../shared/http/logger';
import { processMessage, workerHandler } from '../shared/observability/worker-handler';
import { eachMessage, jsonMessage } from '../shared/runtime/batch-items';
import { workerOf } from './workers';

const { recordSeconds, timeoutSeconds } = workerOf('run-report');

const deps = {
  ...systemNewRecords,
  reports: dynamoReportWrites,
  sources: {
    payments: dynamoPaymentReads,
    accounts: dynamoAccountWrites,
    ledger: dynamoLedgerStore,
    refunds: dynamoRefundStore,
    customers: dynamoCustomerWrites,
  },
  files: reportWriters,
  // The run's lease lasts its invocation's time (and a margin): no other run or sweep takes it until then.
  runMs: timeoutSeconds * 1000,
};

export const handler = workerHandler(
  logger,
  async (event: Pick<SQSEvent, 'Records'>, context: Context): Promise<SQSBatchResponse> =>
    eachMessage(event.Records, context, {
      recordMs: recordSeconds * 1000,
      parse: (body) => jsonMessage(body, 'report_id'),
      handle: async ({ report_id: reportId }, record) => {
        // The invocation and the message: a message handed again, in this invocation or another, is another owner.
        const owner = `${context.awsRequestId}/${record.messageId}`;
        const { run, report } = await processMessage('reports', record, () => runReport(deps, reportId, owner));
        logger.info('Report run', {
          report_id: reportId,
          run,
          status: report?.status ?? 'NOT_FOUND',
          ...(report?.row_count === undefined ? {} : { rows: report.row_count }),
          ...(run === 'leased' || run === 'lost' ? { lease_owner: report?.lease_owner, owner } : {}),
        });
      },
      failed: (record, error, message) =>
        logger.error('Report run failed: the queue hands it again', {
          message_id: record.messageId,
          ...(message ? { report_id: message.report_id } : {}),
          error,
        }),
      outOfTime: (left) =>
        logger.warn('Out of time: the queue hands the rest of the batch again', { messages: left.length }),
    }),
);
