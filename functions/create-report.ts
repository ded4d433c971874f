/**
 * POST /v1/reports: a CSV report of payments, of an account's movements or of refunds, answered PENDING
 * (docs/reconciliation.md).
 */
import { systemNewRecords } from '../shared/domain/clock';
import { createReport } from '../shared/domain/reports';
import { dynamoAccountWrites } from '../shared/data/accounts-repository';
import { dynamoReportWrites } from '../shared/data/reports-repository';
import { httpHandler } from '../shared/http/handler';
import type { CreateReportRequest } from '../shared/schemas/reports';
import { createReportRequest } from '../shared/schemas/generated/reports';
import { reportsAfterCommit } from './after-commit';

export const handler = httpHandler<CreateReportRequest>({
  name: 'createReport',
  body: createReportRequest,
  handle: ({ auth, body }) =>
    createReport(
      // The run is sent after the report's commit: a failed send answers it PENDING all the same, and
      // the sweeper queues it (functions/after-commit.ts).
      { ...systemNewRecords, reports: dynamoReportWrites, accounts: dynamoAccountWrites, queue: reportsAfterCommit() },
      auth.tenant,
      body,
      auth.scopes,
    ),
});
