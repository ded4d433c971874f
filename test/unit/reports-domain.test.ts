/** createReport's answers with in-memory stores: the client's limit of PENDING reports, who may reveal numbers. */
import { AppError, RetryLater } from '../../shared/domain/errors';
import { createReport, MAX_PENDING_REPORTS, type StoredReport } from '../../shared/domain/reports';

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
