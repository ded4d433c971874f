/** POST /v1/reports: a CSV report of payments or of an account's movements, answered PENDING (docs/reconciliation.md). */
import { systemNewRecords } from '../shared/domain/clock';
import { createReport } from '../shared/domain/reports';
import { dynamoAccountStore } from '../shared/data/accounts-repository';
import { reportQueue } from '../shared/data/queues';
import { dynamoReportStore } from '../shared/data/reports-repository';
import { httpHandler } from '../shared/http/handler';
import type { CreateReportRequest } from '../shared/schemas/reports';
import { createReportRequest } from '../shared/schemas/generated/reports';

export const handler = httpHandler<CreateReportRequest>({
  name: 'createReport',
  body: createReportRequest,
  handle: ({ auth, body }) =>
    createReport(
      { ...systemNewRecords, reports: dynamoReportStore, accounts: dynamoAccountStore, queue: reportQueue() },
      auth.tenant,
      body,
    ),
});
