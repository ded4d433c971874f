/**
 * POST /v1/reports: a CSV report of payments, of an account's movements or of refunds, answered PENDING
 * (docs/reconciliation.md).
 */
import { systemNewRecords } from '../shared/domain/clock';
import { createReport, type ReportQueue } from '../shared/domain/reports';
import { dynamoAccountStore } from '../shared/data/accounts-repository';
import { reportQueue } from '../shared/data/queues';
import { dynamoReportStore } from '../shared/data/reports-repository';
import { httpHandler } from '../shared/http/handler';
import { logger } from '../shared/http/logger';
import type { CreateReportRequest } from '../shared/schemas/reports';
import { createReportRequest } from '../shared/schemas/generated/reports';

/**
 * The run's message, sent after the report's commit. A failed send fails nothing: the report is
 * committed, due, and the sweeper queues it within minutes; answering an error would only invite a
 * retry that asks for a second report.
 */
const queue: ReportQueue = {
  run: (reportId) =>
    reportQueue()
      .run(reportId)
      .catch((error: unknown) =>
        logger.warn('Report run not queued: the sweeper queues it', { report_id: reportId }, error as Error),
      ),
};

export const handler = httpHandler<CreateReportRequest>({
  name: 'createReport',
  body: createReportRequest,
  handle: ({ auth, body }) =>
    createReport(
      { ...systemNewRecords, reports: dynamoReportStore, accounts: dynamoAccountStore, queue },
      auth.tenant,
      body,
    ),
});
