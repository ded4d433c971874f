/**
 * The layers of the code, checked by `npm test` (test/unit/layers.test.ts) and `npm run lint:layers`.
 * docs/architecture.md draws them. Calls run one way: functions -> http / domain -> data; the QR
 * library, the schemas, observability and runtime settings are leaves that reach up to nothing.
 */
const upper = (...folders) => `^(${folders.join('|')})/`;

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'A module that imports itself, however far round, cannot be read or tested on its own.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shared-is-below-the-entry-points',
      comment: 'shared/ is the code the entry points use: it never reaches back into them.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: upper('functions', 'infra', 'tools', 'test', 'bench') },
    },
    {
      name: 'functions-are-handlers-only',
      comment: 'A function bundles its handler and what shared/ gives it: no CDK, no tooling, no tests.',
      severity: 'error',
      from: { path: '^functions/' },
      to: { path: upper('infra', 'tools', 'test', 'bench') },
    },
    {
      name: 'domain-knows-no-infrastructure',
      comment: 'Business rules know nothing of HTTP, Lambda or DynamoDB: they declare ports, data implements them.',
      severity: 'error',
      from: { path: '^shared/domain/' },
      to: { path: '^shared/(data|http|observability|runtime)/' },
    },
    {
      name: 'http-does-not-call-functions-or-rules',
      comment: 'The Middy chain wraps any handler; it maps the error catalog but runs no business rule.',
      severity: 'error',
      from: { path: '^shared/http/' },
      to: { path: '^shared/domain/', pathNot: '^shared/domain/errors\\.ts$' },
    },
    {
      name: 'data-is-the-bottom-layer',
      comment: 'Repositories never call up into the HTTP layer.',
      severity: 'error',
      from: { path: '^shared/data/' },
      to: { path: '^shared/http/' },
    },
    {
      name: 'data-implements-domain-ports-by-type-only',
      comment:
        'A repository implements a port the domain declares: it may name the domain types (erased at build) ' +
        'and answer in the error catalog, never run a business rule.',
      severity: 'error',
      from: { path: '^shared/data/' },
      to: {
        path: '^shared/domain/',
        pathNot: '^shared/domain/errors\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'qr-is-a-library',
      comment: 'The QR library has its own errors and types: it depends on nothing else of ours.',
      severity: 'error',
      from: { path: '^shared/qr/' },
      to: { path: '^shared/', pathNot: '^shared/qr/' },
    },
    {
      name: 'schemas-are-a-leaf',
      comment: 'Schemas feed validators, types and docs; they use only the QR vocabulary below them.',
      severity: 'error',
      from: { path: '^shared/schemas/' },
      to: { path: '^shared/(domain|data|http|observability|runtime)/' },
    },
    {
      name: 'observability-and-runtime-are-leaves',
      comment: 'Logs, metrics, traces and the environment settings serve every layer and call none.',
      severity: 'error',
      from: { path: '^shared/(observability|runtime)/' },
      to: { path: '^shared/(domain|data|http|qr|schemas)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|cdk\\.out|dist|coverage)/' },
    // Type-only imports count as edges, so the rules above can tell them apart.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.d.ts', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
