/**
 * The baseline's Idempotency-Key, as every POST kept it before answers were committed in the work's
 * own transaction: the key claimed before the work, its answer recorded after it (two writes around
 * the work, whatever the work is). The baseline build (bench/functions/builds.ts) gives this module to
 * shared/http/handler.ts in place of shared/http/idempotency.ts.
 */
import { runIdempotently as current } from '../../../shared/http/idempotency';

export { readIdempotencyKey } from '../../../shared/http/idempotency';

export const runIdempotently: typeof current = (store, request, run) =>
  current(store, request, run, { oneTransaction: false });
