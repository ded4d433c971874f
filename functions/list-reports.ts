/** GET /v1/reports: the client's reports, a page at a time (without download URLs: GET one for its URL). */
import { systemClock } from '../shared/domain/clock';
import { listReports } from '../shared/domain/reports';
import { dynamoReportStore } from '../shared/data/reports-repository';
import { httpHandler } from '../shared/http/handler';
import type { ReportListQuery } from '../shared/schemas/reports';
import { reportListQuery } from '../shared/schemas/generated/reports';

export const handler = httpHandler<undefined, ReportListQuery>({
  name: 'listReports',
  query: reportListQuery,
  handle: ({ auth, query }) => listReports(dynamoReportStore, auth.tenant, query, systemClock.now()),
});
