/**
 * shared/observability/emf-metrics.ts writes the EMF lines Powertools' Metrics wrote (the functions' metrics library
 * before it): the same calls on both, the same lines out, byte for byte.
 */
import { jest } from '@jest/globals';
import { Metrics, MetricUnit as PowertoolsUnit } from '@aws-lambda-powertools/metrics';
import { EmfMetrics, MetricUnit } from '../../shared/observability/emf-metrics';

const OPTIONS = { namespace: 'BrebMerchantApi', serviceName: 'breb-merchant-api' };
const saved = { ...process.env };

beforeEach(() => {
  // As Lambda sets it for an environment started by a request.
  process.env['AWS_LAMBDA_INITIALIZATION_TYPE'] = 'on-demand';
});
afterEach(() => {
  jest.restoreAllMocks();
  process.env = { ...saved };
});

/** What `act` writes to stdout and stderr, with the clock stopped. */
function written(act: () => void): { stdout: string[]; stderr: string[] } {
  jest.spyOn(Date, 'now').mockReturnValue(1_767_225_600_000);
  const stdout: string[] = [];
  const stderr: string[] = [];
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => stdout.push(String(chunk)) > 0);
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => stderr.push(String(chunk)) > 0);
  try {
    act();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return { stdout, stderr };
}

/** The same scenario on both libraries, built after the environment is set (Powertools reads it then). */
function both(disabled: string, scenario: (metrics: EmfMetrics | Metrics, unit: 'Count') => void) {
  process.env['POWERTOOLS_METRICS_DISABLED'] = disabled;
  const powertools = written(() => scenario(new Metrics(OPTIONS), PowertoolsUnit.Count));
  const ours = written(() => scenario(new EmfMetrics(OPTIONS), MetricUnit.Count));
  return { powertools, ours };
}

test.each([
  [
    'an invocation: one dimension set, one metric',
    (m: EmfMetrics | Metrics, unit: 'Count') => {
      m.addDimensions({ route: 'getCustomer', status: '2xx' });
      m.addMetric('Responses', unit, 1);
      m.publishStoredMetrics();
    },
  ],
  [
    'two invocations, the second with another status',
    (m: EmfMetrics | Metrics, unit: 'Count') => {
      for (const status of ['2xx', '4xx']) {
        m.addDimensions({ route: 'linkMerchant', status });
        m.addMetric('Responses', unit, 1);
        m.publishStoredMetrics();
      }
    },
  ],
  [
    'a metric added twice, and one without dimensions',
    (m: EmfMetrics | Metrics, unit: 'Count') => {
      m.addMetric('Responses', unit, 1);
      m.addMetric('Responses', unit, 2);
      m.addMetric('Retries', unit, 3);
      m.publishStoredMetrics();
    },
  ],
  [
    'the cold start metric, once per environment',
    (m: EmfMetrics | Metrics) => {
      m.captureColdStartMetric('linkMerchant');
      m.captureColdStartMetric('linkMerchant');
    },
  ],
  [
    'a single metric beside an invocation: its own line, the service dimension alone',
    (m: EmfMetrics | Metrics, unit: 'Count') => {
      m.addDimensions({ route: 'resolveKey', status: '2xx' });
      m.singleMetric().addMetric('DirectoryLookupMisses', unit, 1);
      m.addMetric('Responses', unit, 1);
      m.publishStoredMetrics();
    },
  ],
  ['nothing to publish: a warning, no line', (m: EmfMetrics | Metrics) => void m.publishStoredMetrics()],
])('%s', (_what, scenario) => {
  const { powertools, ours } = both('false', scenario);
  expect(ours.stdout.map((line) => JSON.parse(line))).toEqual(powertools.stdout.map((line) => JSON.parse(line)));
  expect(ours.stdout).toEqual(powertools.stdout);
  expect(ours.stderr.length).toBe(powertools.stderr.length);
});

test('no cold start in an environment initialized ahead of requests (provisioned concurrency)', () => {
  process.env['AWS_LAMBDA_INITIALIZATION_TYPE'] = 'provisioned-concurrency';
  const { powertools, ours } = both('false', (m) => m.captureColdStartMetric('linkMerchant'));
  expect(ours).toEqual({ stdout: [], stderr: [] });
  expect(powertools).toEqual(ours);
});

test('disabled, nothing is written', () => {
  const { powertools, ours } = both('true', (m, unit) => {
    m.captureColdStartMetric('linkMerchant');
    m.addDimensions({ route: 'getCustomer', status: '2xx' });
    m.addMetric('Responses', unit, 1);
    m.publishStoredMetrics();
  });
  expect(ours).toEqual({ stdout: [], stderr: [] });
  expect(powertools).toEqual(ours);
});
