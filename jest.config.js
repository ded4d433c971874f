// Tests run as native ES modules (Middy and jose are ESM-only, as are our Lambda bundles), with SWC
// stripping TypeScript. `npm test` passes --experimental-vm-modules to Node.
// Import attributes stay: Node needs `with { type: 'json' }` to import a JSON module (the OpenAPI document).
const swc = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022', experimental: { keepImportAttributes: true } },
    module: { type: 'es6' },
  },
];

const project = (name, extra = {}) => ({
  displayName: name,
  testMatch: [`<rootDir>/test/${name}/**/*.test.ts`],
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  testEnvironment: 'node',
  // Each file's DynamoDB Local, from the run's pool (test/support/dynamodb-pool.ts).
  setupFilesAfterEnv: ['<rootDir>/test/support/fresh-dynamodb.ts'],
  ...extra,
});

export default {
  projects: [
    project('unit'),
    project('integration'),
    project('e2e'),
    // Fuzzing, races, injected faults, the authorization matrix, log hygiene and limits, all through
    // the local server (docs/reliability.md). FUZZ_RUNS sets the fuzz inputs per route.
    project('reliability'),
    project('infra'),
  ],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  // The slowest files first, on a clean clone too (no timings cached yet).
  testSequencer: '<rootDir>/test/support/test-sequencer.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 30000,
  // Two files at a time, whatever the cores: most of a file's time is spent waiting (on timers, retries,
  // DynamoDB Local, the browser), so a second file fills that time. More would crowd the one DynamoDB
  // Local every file shares. (On 2 cores Jest's default is a single file at a time.)
  maxWorkers: 2,
};
