/**
 * `npm run bench:network`: what the sponsor bank's doors cost (docs/network.md). The local runtime in
 * connector mode against the fake bank (tools/fake-bank.ts), through the HTTP API with real tokens:
 * the calls each operation makes to the connector and its median time, for a resolve of a key at
 * another bank, a resolve of one of our merchants' keys, the bank's decision on a merchant, the link
 * of that merchant and of its account, a key's registration (published in the bank's directory
 * first); then the same resolve and registration in sandbox mode (our table), for the ratios, in the
 * same runtime. Every connector request is signed with Ed25519 (RFC 9421), every one of the bank's
 * verified. Writes docs/benchmarks/network.json.
 *
 * Options (environment): BENCH_REQUESTS (100 of each).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { apiCall } from './api-calls';

process.env['POWERTOOLS_LOG_LEVEL'] = 'ERROR';
const { startLocalRuntime, IN_MEMORY } = await import('../infra/local/runtime');
const { DYNAMODB_LOCAL_UNDER_LOAD_TIMEOUT_MS } = await import('../infra/local/dynamodb-local');
const { REPO_ROOT } = await import('../infra/paths');
const { FakeBank } = await import('../tools/fake-bank');
const { machineLine, median } = await import('./run-facts');

const REQUESTS = Number(process.env['BENCH_REQUESTS'] ?? 100);
const CLIENT = 'sandbox-client-a';
/** Ana María's PHONE key, held at another participant in the fake bank's directory. */
const FOREIGN_KEY = { key_type: 'PHONE', key_value: '3001234567' };

type Runtime = Awaited<ReturnType<typeof startLocalRuntime>>;

async function tokenOf(runtime: Runtime): Promise<string> {
  const answer = await fetch(`${runtime.url}/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${CLIENT}:sandbox-secret-a`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  return ((await answer.json()) as { access_token: string }).access_token;
}

const call = (runtime: Runtime, token: string, method: string, route: string, body?: unknown) =>
  apiCall(runtime.url, token, method, route, body);

/** The median milliseconds of `run` over REQUESTS runs, and the connector calls one run made. */
async function measure(calls: () => number, run: (i: number) => Promise<unknown>) {
  const times: number[] = [];
  const before = calls();
  for (let i = 0; i < REQUESTS; i += 1) {
    const start = performance.now();
    await run(i);
    times.push(performance.now() - start);
  }
  return { median_ms: Number(median(times).toFixed(2)), connector_calls: (calls() - before) / REQUESTS };
}

const nit = (i: number): string => String(830_000_000 + i);
const accountNumber = (i: number): string => String(440_000_000_000 + i);

// Connector mode.
const started: { runtime?: Runtime } = {};
const bank = await FakeBank.start(() => started.runtime!.url);
const runtime = (started.runtime = await startLocalRuntime({
  port: 0,
  dataDir: IN_MEMORY,
  network: { kind: 'connector', url: bank.url, bankKeys: JSON.stringify(bank.publicKeys) },
  dynamodbRequestTimeoutMs: DYNAMODB_LOCAL_UNDER_LOAD_TIMEOUT_MS,
}));
const token = await tokenOf(runtime);
const bankCalls = () => bank.lookups.length + bank.orders.length + bank.keyChanges.length;
const connected = runtime;

const decision = await measure(bankCalls, (i) =>
  bank
    .decide(connected.url, nit(i), {
      platform: CLIENT,
      business_name: `Comercio ${i} SAS`,
      status: 'APPROVED',
      accounts: [
        {
          account_number: accountNumber(i),
          account_type: 'ORDINARY',
          opening_balance: { value: '500.00', currency: 'COP' },
        },
      ],
    })
    .then((answer) => {
      if (answer.status !== 200) throw new Error(`decision answered ${answer.status}`);
    }),
);
const customers: string[] = [];
const linkMerchant = await measure(bankCalls, async (i) => {
  const customer = await call(connected, token, 'POST', '/v1/customers/business/link', {
    type: 'BUSINESS',
    business_name: `Comercio ${i} SAS`,
    email: 'pagos@comercio.co',
    mobile_phone_number: '3001234567',
    identification_type: 'NIT',
    identification_number: nit(i),
    address: { line_1: 'Calle 1', city: 'Bogotá', state: 'Cundinamarca', post_code: '110111', country: 'CO' },
    merchant_category_code: '5411',
  });
  customers.push(customer['id']!);
});
const accounts: string[] = [];
const linkAccount = await measure(bankCalls, async (i) => {
  const account = await call(connected, token, 'POST', '/v1/accounts', {
    customer_id: customers[i],
    type: 'ORDINARY',
    number: accountNumber(i),
  });
  accounts.push(account['id']!);
});
// A key per account, each published in the bank's directory before it is stored.
const registerKey = await measure(bankCalls, (i) =>
  call(connected, token, 'POST', '/v1/keys', {
    account_id: accounts[i],
    key: { key_type: 'ALPHA', key_value: `@benchnet${i}` },
  }),
);
const ownKey = { key_type: 'ALPHA', key_value: '@benchnet0' };
const resolveForeign = await measure(bankCalls, () =>
  call(connected, token, 'POST', '/v1/resolve-key', { customer_id: customers[0], key: FOREIGN_KEY }),
);
const resolveOwn = await measure(bankCalls, () =>
  call(connected, token, 'POST', '/v1/resolve-key', { customer_id: customers[1], key: ownKey }),
);
// Sandbox mode, in the same runtime: the functions read the stage's network at each use (NETWORK),
// and the sandbox's directory in our table holds the same key.
process.env['NETWORK'] = 'sandbox';
const resolveSandbox = await measure(bankCalls, () =>
  call(connected, token, 'POST', '/v1/resolve-key', { customer_id: customers[0], key: FOREIGN_KEY }),
);
const registerSandbox = await measure(bankCalls, (i) =>
  call(connected, token, 'POST', '/v1/keys', {
    account_id: accounts[i],
    key: { key_type: 'ALPHA', key_value: `@benchsbx${i}` },
  }),
);
await runtime.stop();
await bank.stop();

const report = {
  machine: machineLine(),
  requests: REQUESTS,
  operations: {
    'bank decision (PUT /network/v1/merchants, the bank calling us)': decision,
    'link merchant': linkMerchant,
    'link account': linkAccount,
    'register a key (connector: published first)': registerKey,
    'register a key (sandbox: our table)': registerSandbox,
    'resolve a key at another bank (connector)': resolveForeign,
    "resolve one of our merchants' keys (connector)": resolveOwn,
    'resolve a key at another bank (sandbox: our table)': resolveSandbox,
  },
  ratio_connector_to_sandbox_resolve: Number((resolveForeign.median_ms / resolveSandbox.median_ms).toFixed(2)),
  ratio_connector_to_sandbox_register: Number((registerKey.median_ms / registerSandbox.median_ms).toFixed(2)),
};
writeFileSync(path.join(REPO_ROOT, 'docs', 'benchmarks', 'network.json'), `${JSON.stringify(report, null, 2)}\n`);
console.log(JSON.stringify(report, null, 2));
process.exit(0);
