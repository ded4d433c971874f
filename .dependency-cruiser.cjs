/**
 * The layers of the code, checked by `npm test` (test/unit/layers.test.ts) and `npm run lint:layers`.
 * docs/architecture.md draws them. Calls run one way: functions -> http / domain -> data; the QR
 * library, the schemas, observability and runtime settings are leaves that reach up to nothing; the
 * dashboard (a browser app) and the server know each other only through the API.
 */
const upper = (...folders) => `^(${folders.join('|')})/`;
const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

module.exports = {
  forbidden: [
    forbid(
      'no-cycles',
      'A module that imports itself, however far round, cannot be read or tested on its own.',
      {},
      { circular: true },
    ),
    forbid(
      'shared-is-below-the-entry-points',
      'shared/ is the code the entry points use: it never reaches back into them.',
      { path: '^shared/' },
      { path: upper('functions', 'infra', 'tools', 'test', 'bench') },
    ),
    forbid(
      'functions-are-handlers-only',
      'A function bundles its handler and what shared/ gives it: no CDK, no tooling, no tests.',
      { path: '^functions/' },
      { path: upper('infra', 'tools', 'test', 'bench') },
    ),
    forbid(
      'domain-knows-no-infrastructure',
      'Business rules know nothing of HTTP, Lambda or DynamoDB: they declare ports, data implements them.',
      { path: '^shared/domain/' },
      { path: '^shared/(data|http|observability|runtime)/' },
    ),
    forbid(
      'http-does-not-call-functions-or-rules',
      'The Middy chain wraps any handler; it maps the error catalog but runs no business rule.',
      { path: '^shared/http/' },
      { path: '^shared/domain/', pathNot: '^shared/domain/errors\\.ts$' },
    ),
    forbid(
      'data-is-the-bottom-layer',
      'Repositories never call up into the HTTP layer.',
      { path: '^shared/data/' },
      { path: '^shared/http/' },
    ),
    forbid(
      'data-implements-domain-ports-by-type-only',
      'A repository implements a port the domain declares: it may name the domain types (erased at build) ' +
        'and answer in the error catalog, never run a business rule.',
      { path: '^shared/data/' },
      {
        path: '^shared/domain/',
        pathNot: '^shared/domain/errors\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    ),
    forbid(
      'qr-is-a-library',
      'The QR library has its own errors and types: it depends on nothing else of ours.',
      { path: '^shared/qr/' },
      { path: '^shared/', pathNot: '^shared/qr/' },
    ),
    forbid(
      'schemas-are-a-leaf',
      'Schemas feed validators, types and docs; they use only the QR vocabulary below them.',
      { path: '^shared/schemas/' },
      { path: '^shared/(domain|data|http|observability|runtime)/' },
    ),
    forbid(
      'dashboard-is-an-api-client',
      'The dashboard runs in a browser and reaches the server through the API alone (dashboard/src/api.ts). ' +
        'It may name the types generated from the OpenAPI document: declarations only (nothing runs, ' +
        'nothing is bundled), and the contract any client of the API reads, so api.ts is typed by it.',
      { path: '^dashboard/' },
      {
        path: upper('functions', 'shared', 'infra', 'tools', 'test', 'bench'),
        pathNot: '^shared/schemas/generated/openapi-types\\.d\\.ts$',
      },
    ),
    forbid(
      'the-server-runs-no-dashboard-code',
      "The server serves the dashboard's built files; it may name the type of their config.json, never run its code.",
      { path: upper('functions', 'shared', 'infra', 'tools') },
      { path: '^dashboard/', dependencyTypesNot: ['type-only'] },
    ),
    forbid(
      'calendar-is-a-leaf',
      "Colombia's calendar days are arithmetic on instants that rules and repositories share: it calls nothing of ours.",
      { path: '^shared/calendar/' },
      { path: '^shared/(domain|data|http|qr|schemas|observability|runtime)/' },
    ),
    forbid(
      'observability-and-runtime-are-leaves',
      'Logs, metrics, traces and the environment settings serve every layer and call none.',
      { path: '^shared/(observability|runtime)/' },
      { path: '^shared/(domain|data|http|qr|schemas)/' },
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|cdk\\.out|dist|coverage)/' },
    // Type-only imports count as edges, so the rules above can tell them apart.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.d.ts', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
