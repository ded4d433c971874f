/**
 * The stage settings themselves (infra/stages.ts), and the LocalStack target: the `local` stage
 * cannot be deployed here (LocalStack does not run on these machines), so its settings and the
 * deploy script are checked; every other test file synthesizes `local` like any other stage.
 */
import fs from 'node:fs';
import path from 'node:path';
import { RemovalPolicy } from 'aws-cdk-lib';
import { SANDBOX_CLIENTS } from '../../infra/local/oauth';
import { DASHBOARD_CLIENT_ID } from '../../infra/local/people';
import { REPO_ROOT } from '../../infra/paths';
import {
  EXAMPLE_BANK_KEYS,
  EXAMPLE_CONNECTOR_URL,
  EXAMPLE_NETWORK_DOMAIN,
  networkDomainOf,
  removalPolicyOf,
  resolveNetwork,
  stageEnvironment,
  stages,
  stageSettings,
  type StageName,
} from '../../infra/stages';

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));

describe.each(Object.keys(stages) as StageName[])('stage %s', (name) => {
  const settings = stages[name];

  test('is complete and consistent', () => {
    expect(settings.name).toBe(name);
    expect(settings.acquirerId).toMatch(/^[A-Z0-9]{2,}$/);
    expect(settings.participant.nit).toMatch(/^\d{9}$/);
    expect(settings.throttling.rateLimit).toBeGreaterThan(0);
    expect(settings.throttling.burstLimit).toBeGreaterThanOrEqual(settings.throttling.rateLimit);
    expect(settings.alarms.latencyP99Ms).toBeGreaterThan(0);
    // Whole pesos, and well below the 13 integer digits an amount may carry.
    expect(settings.maxPaymentCents % 100).toBe(0);
    expect(settings.maxPaymentCents).toBeLessThan(1e15);
    expect(settings.alarms.serverErrorRatePercent).toBeGreaterThan(0);
    expect(removalPolicyOf(settings)).toBe(settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY);
  });

  test("the stage's throttling stays well above one tenant's limit", () => {
    const { throttling, tenantRateLimit } = settings;
    expect(tenantRateLimit.requestsPerSecond).toBeGreaterThanOrEqual(1);
    expect(tenantRateLimit.burst).toBeGreaterThanOrEqual(tenantRateLimit.requestsPerSecond);
    // A tenant within its limit keeps up at most a fifth of the stage's steady rate...
    expect(5 * tenantRateLimit.requestsPerSecond).toBeLessThanOrEqual(throttling.rateLimit);
    // ...and sends at once at most half of the stage's burst, even across a window boundary, where
    // two windows' worth (2 x burst) can arrive together.
    expect(2 * (2 * tenantRateLimit.burst)).toBeLessThanOrEqual(throttling.burstLimit);
  });

  test('a Cognito domain prefix that Cognito accepts', () => {
    if (settings.identity.kind !== 'cognito') return;
    // Lowercase letters, digits and hyphens, and none of the reserved words.
    expect(settings.identity.domainPrefix).toMatch(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/);
    expect(settings.identity.domainPrefix).not.toMatch(/aws|amazon|cognito/);
    expect(settings.identity.clients.map((c) => c.access).sort()).toEqual(['full', 'read']);
  });
});

test('production: no sandbox, data kept, a year of logs, tokens from Cognito', () => {
  const prod = stages.prod;
  expect(prod.sandboxEnabled).toBe(false);
  expect(prod.retainData).toBe(true);
  expect(prod.logLevel).not.toBe('DEBUG');
  expect(prod.logRetention).toBeGreaterThanOrEqual(365);
  expect(prod.identity.kind).toBe('cognito');
});

test('dev can be destroyed with its data', () => {
  expect(stages.dev.retainData).toBe(false);
});

test('`-c stage=...` picks a stage; dev by default; an unknown one is an error', () => {
  expect(stageSettings(undefined)).toBe(stages.dev);
  expect(stageSettings('prod')).toBe(stages.prod);
  expect(() => stageSettings('production')).toThrow('Unknown stage "production"');
});

describe('LocalStack (stage local)', () => {
  test('trusts the local token endpoint of `npm start`, its sandbox clients and its dashboard', () => {
    const { identity } = stages.local;
    expect(identity).toEqual({
      kind: 'external',
      issuer: 'http://127.0.0.1:3000',
      audience: [...SANDBOX_CLIENTS.map((client) => client.clientId), DASHBOARD_CLIENT_ID],
      // Where the API's OpenAPI document sends clients for a token.
      tokenUrl: 'http://127.0.0.1:3000/oauth2/token',
    });
  });

  test('is disposable: sandbox on, nothing retained', () => {
    expect(stages.local.sandboxEnabled).toBe(true);
    expect(stages.local.retainData).toBe(false);
  });

  test('`npm run deploy:local` deploys it with cdklocal, which the project installs', () => {
    expect(pkg.scripts['deploy:local']).toBe('cdklocal deploy -c stage=local');
    expect(pkg.scripts['bootstrap:local']).toBe('cdklocal bootstrap -c stage=local');
    expect(pkg.devDependencies['aws-cdk-local']).toBeDefined();
    expect(fs.existsSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'cdklocal'))).toBe(true);
  });

  test('`npm run synth:all` synthesizes it with the other stages', () => {
    expect(pkg.scripts['synth:all']).toBe('tsx infra/synth-all.ts');
    expect(Object.keys(stages)).toEqual(['local', 'dev', 'staging', 'prod']);
  });
});

test('every stage keeps personal data no law makes us keep 30 days, and tells its functions (PII_RETENTION_DAYS)', () => {
  for (const settings of Object.values(stages)) {
    expect(settings.piiRetentionDays).toBe(30);
    expect(stageEnvironment(settings, 't')['PII_RETENTION_DAYS']).toBe('30');
  }
  expect(stageEnvironment({ ...stages.prod, piiRetentionDays: 15 }, 't')['PII_RETENTION_DAYS']).toBe('15');
});

test("a stage's listShards reach every function as LIST_SHARDS, checked: a layout that would misplace items does not synthesize", () => {
  expect(stageEnvironment(stages.prod, 't')).not.toHaveProperty('LIST_SHARDS');
  const layouts = { 'big-client': [{ from: '2026-12-01T00:00:00.000Z', shards: { PAYMENT: 16, DELIVERY: 16 } }] };
  const environment = stageEnvironment({ ...stages.prod, listShards: layouts }, 't');
  expect(JSON.parse(environment['LIST_SHARDS']!)).toEqual(layouts);
  const backwards = {
    'big-client': [
      { from: '2026-12-01T00:00:00.000Z', shards: { PAYMENT: 16 } },
      { from: '2026-11-01T00:00:00.000Z', shards: { PAYMENT: 24 } },
    ],
  };
  expect(() => stageEnvironment({ ...stages.prod, listShards: backwards }, 't')).toThrow(/LIST_SHARDS of big-client/);
});

describe("production's network from its context values (resolveNetwork)", () => {
  /** Every context value a connector stage needs, as an operator gives them (-c name=value). */
  const complete: Record<string, string> = {
    networkConnectorUrl: EXAMPLE_CONNECTOR_URL,
    networkBankKeys: EXAMPLE_BANK_KEYS,
    networkDomainName: EXAMPLE_NETWORK_DOMAIN.domainName,
    networkCertificateArn: EXAMPLE_NETWORK_DOMAIN.certificateArn,
    networkTruststoreUri: EXAMPLE_NETWORK_DOMAIN.truststoreUri,
  };
  const resolve = (context: Record<string, string | undefined>, settings = stages.prod) =>
    resolveNetwork(settings, (name) => context[name]);

  test('with all of them: the connector, the keys and the network domain', () => {
    const resolved = resolve(complete);
    expect(networkDomainOf(resolved)).toEqual(EXAMPLE_NETWORK_DOMAIN);
    expect(resolved.network).toMatchObject({ kind: 'connector', bankKeys: EXAMPLE_BANK_KEYS });
  });

  test.each(['networkBankKeys', 'networkDomainName', 'networkCertificateArn', 'networkTruststoreUri'])(
    'without %s production does not synthesize, and the error names it',
    (missing) => {
      expect(() => resolve({ ...complete, [missing]: undefined })).toThrow(missing);
      // An empty value (`-c networkDomainName=`) is none.
      expect(() => resolve({ ...complete, [missing]: '' })).toThrow(missing);
    },
  );

  test('the domain may come from the stage settings instead; the context wins over them', () => {
    const withDomain = {
      ...stages.prod,
      network: { kind: 'connector' as const, domain: { ...EXAMPLE_NETWORK_DOMAIN, domainName: 'bank.example.org' } },
    };
    const { networkDomainName: _ignored, ...withoutName } = complete;
    expect(networkDomainOf(resolve(withoutName, withDomain))?.domainName).toBe('bank.example.org');
    expect(networkDomainOf(resolve(complete, withDomain))?.domainName).toBe(EXAMPLE_NETWORK_DOMAIN.domainName);
  });

  test('a malformed value is refused, naming it', () => {
    expect(() => resolve({ ...complete, networkDomainName: 'https://network.example.com' })).toThrow(
      /networkDomainName .* is not a lowercase host name/,
    );
    expect(() => resolve({ ...complete, networkTruststoreUri: 's3://bucket' })).toThrow(
      /networkTruststoreUri .* is not an S3 object/,
    );
    expect(() => resolve({ ...complete, networkCertificateArn: 'certificate/abc' })).toThrow(
      /networkCertificateArn .* is not an ACM certificate ARN/,
    );
  });

  test.each(['local', 'dev', 'staging'] as StageName[])('%s (sandbox) has no network domain, given or not', (name) => {
    expect(networkDomainOf(resolve(complete, stages[name]))).toBeUndefined();
  });
});
