/** GET /v1/reports/{id}: one of the client's reports, with a fresh download URL once SUCCEEDED. */
import { systemClock } from '../shared/domain/clock';
import { getReport } from '../shared/domain/reports';
import { reportDownloads } from '../shared/data/report-downloads';
import { dynamoReportWrites } from '../shared/data/reports-repository';
import { httpHandler } from '../shared/http/handler';

export const handler = httpHandler<undefined, Record<string, never>, { id: string }>({
  name: 'getReport',
  handle: ({ auth, path }) =>
    getReport({ reports: dynamoReportWrites, files: reportDownloads, clock: systemClock }, auth.tenant, path.id),
});
