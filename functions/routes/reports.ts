/**
 * The route family "Reports and reconciliation": report files of payments and refunds, made after the request. Its functions deploy in a nested stack of their
 * own (infra/constructs/route-family-stack.ts); index.ts joins the families into the route table.
 */
import { IDEMPOTENCY_ACTIONS, LIST_ACTIONS, SCOPES, type RouteFamily } from './definitions';

export const reportRoutes: RouteFamily = {
  name: 'reports',
  title: 'Reports and reconciliation',
  routes: [
    {
      name: 'createReport',
      method: 'POST',
      paths: ['/v1/reports'],
      handler: 'create-report',
      summary: "Ask for a CSV report of payments, of an account's movements or of refunds over a period",
      schemas: { body: 'createReportRequestSchema', query: 'emptyQuerySchema', response: 'reportSchema' },
      problems: ['NOT_FOUND', 'REPORTS_BUSY'],
      // A report puts every payment of a period, with its payers' personal data, in a file: a scope of
      // its own, which read-only principals do not hold (docs/security.md).
      scopes: [SCOPES.reportsWrite],
      // Reads a movements report's account; the transaction puts the report and updates its list's
      // counters and the client's count of PENDING reports; its run is then queued.
      tableActions: IDEMPOTENCY_ACTIONS,
      queues: ['reports'],
    },
    {
      name: 'getReport',
      method: 'GET',
      paths: ['/v1/reports/{id}'],
      handler: 'get-report',
      summary: "Read one of the client's reports, with a download URL that expires once it SUCCEEDED",
      schemas: { body: null, query: 'emptyQuerySchema', response: 'reportSchema' },
      problems: [],
      scopes: [SCOPES.paymentsRead],
      // Reads the report; a download URL handed out puts its audit event (with its counters: Update).
      tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
      // Presigns the download URL of the report's file.
      reportFiles: ['read'],
    },
    {
      name: 'listReports',
      method: 'GET',
      paths: ['/v1/reports'],
      handler: 'list-reports',
      summary: "List the client's reports, a page at a time",
      schemas: { body: null, query: 'reportListQuerySchema', response: 'reportListSchema' },
      problems: [],
      scopes: [SCOPES.paymentsRead],
      tableActions: LIST_ACTIONS,
    },
  ],
};
