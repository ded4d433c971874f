/**
 * Races through the local server: 25 identical requests at once. For each uniqueness rule of the
 * route samples (a NIT per client, an account number per customer, a key value in the directory, a
 * QR reference per merchant), exactly one wins and the other 24 get the rule's 409 naming the winner.
 * For every POST of the route table with one Idempotency-Key, all 25 get the one answer. Either way
 * the table shows exactly the writes of a single request (compared with a scan).
 */
import { routes, type RouteDefinition } from '../../functions/routes';
import { REPLAY_HEADER, WITHHELD_HEADER } from '../../shared/http/idempotency';
import { startTestApi, type ApiAnswer, type TestApi } from '../support/local-api';
import { SETTLEMENT_AFTER_THE_TESTS } from '../support/settlement';
import {
  createParty,
  ROUTE_SAMPLES,
  sampleOf,
  sendSample,
  type Party,
  type SampleRequest,
} from '../support/route-samples';
import { diffItems, writesOf, type Writes } from '../support/table-diff';

const RACERS = 25;
/**
 * DynamoDB Local serialises transactions: the last of 25 racing on one item waits for the other 24
 * and their conflict retries, past the deployed 10 s route timeout on a loaded CI machine (a 503 for
 * that racer). These races show uniqueness, not speed: each route gets 30 s, each test 60 s.
 */
const ROUTE_TIMEOUT_MS = 30_000;
const TIMEOUT_MS = 60_000;

let api: TestApi;
let party: Party;
let races = 0;

beforeAll(async () => {
  // Each race is measured by the table's changes: no settlement job may change it in the background.
  api = await startTestApi({ sandboxSettlementDelayMs: SETTLEMENT_AFTER_THE_TESTS, routeTimeoutMs: ROUTE_TIMEOUT_MS });
  party = await createParty(api, 'sandbox-client-a');
});

afterAll(async () => {
  process.stdout.write(`concurrency: ${races} races of ${RACERS} identical requests\n`);
  await api.stop();
});

/**
 * Time-window counters (resolve-key's lookup budget, RATE_WINDOW): a request creates its window's
 * item or updates it, by whether another request of that window came first, not by what it does.
 * Counted as updated either way, so a race and a lone request compare whatever the clock says.
 */
const WINDOWED_ENTITIES = ['RATE_WINDOW'];

const windowsAsUpdates = (writes: Writes): Pick<Writes, 'entities' | 'updated'> => {
  const entities = { ...writes.entities };
  const updated = { ...writes.updated };
  for (const entity of WINDOWED_ENTITIES) {
    const created = entities[entity];
    if (created === undefined) continue;
    delete entities[entity];
    updated[entity] = (updated[entity] ?? 0) + created;
  }
  return { entities, updated };
};

/** What a set of writes amounts to, whatever the ids: entities added or changed, counter moves. */
const shapeOf = (writes: Writes) => ({
  ...windowsAsUpdates(writes),
  counterMoves: Object.values(writes.counters).sort(),
});

const singles = new Map<string, Promise<ReturnType<typeof shapeOf>>>();

/** The writes of one request of the route, alone (measured once per route). */
function writesOfOne(route: RouteDefinition): Promise<ReturnType<typeof shapeOf>> {
  let single = singles.get(route.name);
  if (!single) {
    single = (async () => {
      const request = await sampleOf(route).valid({ api, party });
      return api.quietly(async () => {
        const before = await api.scan();
        const answer = await sendSample(api, route, request, { token: party.token });
        expect(answer.status).toBeLessThan(300);
        return shapeOf(writesOf(diffItems(before, await api.scan())));
      });
    })();
    singles.set(route.name, single);
  }
  return single;
}

async function race(
  route: RouteDefinition,
  request: SampleRequest,
  headers: Record<string, string> = {},
): Promise<{ answers: ApiAnswer[]; writes: ReturnType<typeof shapeOf> }> {
  return api.quietly(async () => {
    const before = await api.scan();
    const answers = await Promise.all(
      Array.from({ length: RACERS }, () => sendSample(api, route, request, { token: party.token, headers })),
    );
    races += 1;
    return { answers, writes: shapeOf(writesOf(diffItems(before, await api.scan()))) };
  });
}

const uniqueRoutes = routes.filter((route) => ROUTE_SAMPLES[route.name]?.uniqueness);
const postRoutes = routes.filter((route) => route.method === 'POST');

describe('uniqueness rules under a race of identical requests', () => {
  it('has a rule for each uniqueness the design names', () => {
    const rules = new Set(uniqueRoutes.map((route) => sampleOf(route).uniqueness!.rule));
    for (const rule of [
      'one customer per NIT and client',
      'one account number per customer',
      'one key value in the Bre-B directory',
      'one QR code reference per merchant',
      'one payment per resolution',
    ]) {
      expect(rules).toContain(rule);
    }
  });

  it.each(uniqueRoutes.map((route) => [`${route.name}: ${sampleOf(route).uniqueness!.rule}`, route] as const))(
    '%s',
    async (_, route) => {
      const sample = sampleOf(route);
      const rule = sample.uniqueness!;
      const single = await writesOfOne(route);
      const { answers, writes } = await race(route, await sample.valid({ api, party }));

      const winners = answers.filter((answer) => answer.status < 300);
      const losers = answers.filter((answer) => answer.status >= 300);
      if (rule.repeats === 'same-answer') {
        expect(losers).toEqual([]);
        expect(new Set(winners.map((answer) => answer.body.id)).size).toBe(1);
      } else {
        expect(winners).toHaveLength(1);
        expect(losers.map((answer) => [answer.status, answer.body.code])).toEqual(
          Array(RACERS - 1).fill([409, rule.code]),
        );
        if (rule.existingIdField) {
          for (const loser of losers) expect(loser.body[rule.existingIdField]).toBe(winners[0]!.body.id);
        }
      }
      expect(writes).toEqual(single);
    },
    TIMEOUT_MS,
  );
});

describe('one Idempotency-Key under a race of identical requests', () => {
  it.each(postRoutes.map((route) => [`${route.method} ${route.paths[0]}`, route] as const))(
    '%s',
    async (_, route) => {
      const sample = sampleOf(route);
      const single = await writesOfOne(route);
      const request = await sample.valid({ api, party });
      const { answers, writes } = await race(route, request, { 'idempotency-key': `race-${route.name}-${Date.now()}` });

      const originals = answers.filter((answer) => answer.headers.get(REPLAY_HEADER) !== 'true');
      expect(originals).toHaveLength(1);
      const original = originals[0]!;
      expect(original.status).toBeLessThan(300);
      for (const answer of answers) {
        // A replay answers the original, less what it showed once and withholds since (a secret),
        // each field named in its header (shared/http/idempotency.ts).
        const withheld = (answer.headers.get(WITHHELD_HEADER) ?? '').split(',').map((field) => field.trim());
        const expected = Object.fromEntries(
          Object.entries(original.body as Record<string, unknown>).filter(([field]) => !withheld.includes(field)),
        );
        expect([answer.status, answer.body]).toEqual([original.status, expected]);
      }
      expect(writes).toEqual(single);
    },
    TIMEOUT_MS,
  );
});
