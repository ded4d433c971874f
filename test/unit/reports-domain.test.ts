/**
 * createReport's answers with in-memory stores: the client's limit of PENDING reports, who may reveal
 * numbers; and where a report's file is kept: under its client's folder, reports/<client>/<id>.csv.
 */
import { localReportPath } from '../../shared/data/local-report-files';
import { AppError, RetryLater } from '../../shared/domain/errors';
import {
  createReport,
  MAX_PENDING_REPORTS,
  reportFile,
  reportFolder,
  type StoredReport,
} from '../../shared/domain/reports';
import { ENV } from '../../shared/runtime/config';

function deps(outcome: 'inserted' | 'busy') {
  const queued: string[] = [];
  const limits: number[] = [];
  return {
    queued,
    limits,
    reports: {
      insert: async (_report: StoredReport, limit: number) => {
        limits.push(limit);
        return outcome;
      },
    },
    accounts: { get: async () => undefined },
    queue: { run: async (id: string) => void queued.push(id) },
    clock: { now: () => '2026-03-01T12:00:00.000Z' },
    ids: { newId: () => '7d7c5a1e-1111-4000-8000-000000000001' },
  };
}

const request = { type: 'payments', created_from: '2026-02-01', created_to: '2026-02-28' } as const;
const SCOPES = ['breb/reports.write', 'breb/payments.read'];

test(`asks the store for a place among the client's ${MAX_PENDING_REPORTS} PENDING reports, then queues the run`, async () => {
  const d = deps('inserted');
  await expect(createReport(d, 'client-a', request, SCOPES)).resolves.toMatchObject({ status: 'PENDING' });
  expect(d.limits).toEqual([MAX_PENDING_REPORTS]);
  expect(d.queued).toEqual(['7d7c5a1e-1111-4000-8000-000000000001']);
});

test('a client without a place gets 429 REPORTS_BUSY with Retry-After, and nothing is queued', async () => {
  const d = deps('busy');
  const error = await createReport(d, 'client-a', request, SCOPES).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RetryLater);
  expect(error).toMatchObject({ code: 'REPORTS_BUSY', retryAfterSeconds: 10 });
  expect(d.queued).toEqual([]);
});

test("a report that reveals people's numbers needs breb/payments.read: 403 without it, nothing stored or queued", async () => {
  const d = deps('inserted');
  const revealing = { ...request, reveal: true };
  const error = await createReport(d, 'client-a', revealing, ['breb/reports.write']).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
  expect([d.limits, d.queued]).toEqual([[], []]);
  await expect(createReport(d, 'client-a', revealing, SCOPES)).resolves.toMatchObject({ reveal: true });
  // Masked is the default, and not said: a report that reveals nothing carries no `reveal`.
  await expect(createReport(d, 'client-a', request, ['breb/reports.write'])).resolves.not.toHaveProperty('reveal');
});

describe("a report's file", () => {
  const id = '7d7c5a1e-1111-4000-8000-000000000001';

  test("is under its client's folder: reports/<client>/<id>.csv", () => {
    expect(reportFile({ id, tenant: 'sandbox-client-a' })).toBe(`reports/sandbox-client-a/${id}.csv`);
    expect(reportFile({ id, tenant: '4j2k9m1q7r5t3v8x0z6b2d4f6h' })).toBe(
      `reports/4j2k9m1q7r5t3v8x0z6b2d4f6h/${id}.csv`,
    );
  });

  test("an id with other characters (an external issuer's) is one folder of its own, never another's", () => {
    const odd = ['a/b', '../x', 'a.b', 'a b', 'cliente-ñ', 'a@b'];
    const folders = odd.map(reportFolder);
    for (const folder of folders) expect(folder).toMatch(/^~[A-Za-z0-9_-]+$/);
    expect(new Set(folders).size).toBe(odd.length);
    expect(reportFolder('a/b')).not.toBe(reportFolder('a_b'));
    expect(Buffer.from(reportFolder('../x').slice(1), 'base64url').toString()).toBe('../x');
  });

  test('the local files take the new names and the old (reports/<id>.csv), and nothing that climbs out', () => {
    process.env[ENV.reportFilesDir] = '/tmp/report-files';
    expect(localReportPath(reportFile({ id, tenant: 'sandbox-client-a' }))).toBe(
      `/tmp/report-files/reports/sandbox-client-a/${id}.csv`,
    );
    expect(localReportPath(reportFile({ id, tenant: 'a/../b' }))).toMatch(/^\/tmp\/report-files\/reports\/~[^/]+\//);
    expect(localReportPath(`reports/${id}.csv`)).toBe(`/tmp/report-files/reports/${id}.csv`);
    for (const name of [`reports/../${id}.csv`, `reports/a/b/${id}.csv`, `reports/a.b/${id}.csv`, `other/${id}.csv`]) {
      expect(() => localReportPath(name)).toThrow(/Not the name of a report file/);
    }
  });
});
