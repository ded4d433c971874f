/**
 * A function that seals or opens secrets must declare `sealing` in its table entry: the stack gives
 * the key's ARN and rights from that declaration alone, while the local runtime sets its key for
 * every function, so a forgotten declaration would pass every local test and fail only on AWS. The
 * check reads each handler's source for the calls that reach the sealer (directly, or through the
 * inbound-payment ports, which ask the approval callback, and the own-merchant credit ports that hold
 * them), and the other way round.
 */
import { networkRoutes, routes } from '../../functions/routes';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { workers } from '../../functions/workers';
import { REPO_ROOT } from '../../infra/paths';

/** What a handler calls to reach the stage's secret key. */
const SEALING_CALLS = ['secretSealer(', 'inboundPaymentPorts(', 'ownMerchantCreditPorts('];

test.each([...routes, ...networkRoutes, ...workers].map((fn) => [fn.name, fn] as const))(
  '%s declares sealing exactly when its handler uses the sealer',
  (_name, fn) => {
    const source = readFileSync(path.join(REPO_ROOT, 'functions', `${fn.handler}.ts`), 'utf8');
    const uses = SEALING_CALLS.some((call) => source.includes(call));
    expect({ handler: fn.handler, declares: (fn.sealing ?? []).length > 0 }).toEqual({
      handler: fn.handler,
      declares: uses,
    });
  },
);
