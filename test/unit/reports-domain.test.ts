/** createReport's answers with in-memory stores: the client's limit of PENDING reports. */
import { RetryLater } from '../../shared/domain/errors';
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

test(`asks the store for a place among the client's ${MAX_PENDING_REPORTS} PENDING reports, then queues the run`, async () => {
  const d = deps('inserted');
  await expect(createReport(d, 'client-a', request)).resolves.toMatchObject({ status: 'PENDING' });
  expect(d.limits).toEqual([MAX_PENDING_REPORTS]);
  expect(d.queued).toEqual(['7d7c5a1e-1111-4000-8000-000000000001']);
});

test('a client without a place gets 429 REPORTS_BUSY with Retry-After, and nothing is queued', async () => {
  const d = deps('busy');
  const error = await createReport(d, 'client-a', request).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RetryLater);
  expect(error).toMatchObject({ code: 'REPORTS_BUSY', retryAfterSeconds: 10 });
  expect(d.queued).toEqual([]);
});
