/**
 * The rule of docs/operations.md ("Dependencies"): package.json's `dependencies` are exactly the
 * packages whose code a Lambda function carries, everything else is a devDependency. Every function of
 * the route (the clients' and the network's), worker and trigger tables (and the contract's) is bundled here as
 * infra/constructs/function-bundle.ts bundles it (same aliases, externals and main fields, minified),
 * in one esbuild call per set of modules left out, writing nothing (infra/function-bundles.ts); its
 * metafile names every file each bundle took from node_modules, and its outputs weigh each bundle
 * against its limit. And every version pinned exactly has its reason written there, at that version.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { bundleOptions, type BundleTracer } from '../../infra/constructs/function-bundle';
import { SWAGGER_UI_PACKAGE } from '../../infra/constructs/contract-function';
import {
  buildBundles,
  BUNDLE_LIMIT_BYTES,
  bundleLimitOf,
  everyFunction,
  LARGE_BUNDLE_LIMIT_BYTES,
  type BuiltBundle,
} from '../../infra/function-bundles';
import { FUNCTIONS_DIR, REPO_ROOT } from '../../infra/paths';

const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  overrides: Record<string, string>;
};

/** Every function the stack deploys, routes of the sandbox included. */
const definitions = everyFunction;

/**
 * Modules of functions/ that are no handler: the tables, and what the handlers share (the network
 * ports, the queues they send to after a commit).
 */
const TABLE_MODULES = ['workers', 'triggers', 'contract', 'network-ports', 'after-commit'];

/** Packages a function carries beside its bundle, copied in when it is built (contract-function.ts). */
const COPIED_BESIDE_BUNDLES = [SWAGGER_UI_PACKAGE];

/** The package a path inside node_modules belongs to (the innermost, for a nested node_modules). */
function packageOf(file: string): string | undefined {
  return [...file.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)].at(-1)?.[1];
}

let metafile: Metafile;
let bundles: BuiltBundle[];

beforeAll(async () => {
  ({ metafile, bundles } = await buildBundles(definitions, 'unwritten', { write: false }));
}, 60_000);

/** Every package in some bundle, whoever imported it. */
const bundledPackages = () => new Set(Object.keys(metafile.inputs).flatMap((file) => packageOf(file) ?? []));

/** The packages our own code imports into the bundles (the others come with them). */
const importedPackages = () =>
  new Set(
    Object.entries(metafile.inputs)
      .filter(([file]) => packageOf(file) === undefined)
      .flatMap(([, input]) => input.imports.flatMap((imported) => packageOf(imported.path) ?? [])),
  );

test('every handler of functions/ is an entry of a table, so the bundles below are all of them', () => {
  const handlers = readdirSync(FUNCTIONS_DIR)
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.basename(file, '.ts'))
    .filter((name) => !TABLE_MODULES.includes(name));
  expect(handlers.sort()).toEqual([...new Set(definitions.map((definition) => definition.handler))].sort());
});

/**
 * The peer dependencies of `packages` that the bundles carry: a library's optional peer (Powertools
 * Parameters' Secrets Manager client) is ours to install, or `npm ci --omit=dev` would leave it out.
 */
const bundledPeersOf = (packages: ReadonlySet<string>): string[] => {
  const bundled = bundledPackages();
  return [...packages].flatMap((name) => {
    const { peerDependencies = {} } = JSON.parse(
      readFileSync(path.join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8'),
    ) as { peerDependencies?: Record<string, string> };
    return Object.keys(peerDependencies).filter((peer) => bundled.has(peer));
  });
};

test('dependencies are exactly the packages our code puts into a function', () => {
  // A dependency no function imports belongs in devDependencies; a package a function imports that is
  // not a dependency would leave `npm ci --omit=dev` (and a reader) thinking the bundles do without it.
  const imported = importedPackages();
  const carried = [...imported, ...bundledPeersOf(imported), ...COPIED_BESIDE_BUNDLES];
  expect([...new Set(carried)].sort()).toEqual(Object.keys(manifest.dependencies).sort());
});

test('no package in a bundle, imported by our code or by another package, is a devDependency', () => {
  const bundled = bundledPackages();
  // The check itself: the SDK's own packages come with the clients, which our code imports.
  expect(bundled).toContain('@smithy/core');
  expect(Object.keys(manifest.devDependencies).filter((name) => bundled.has(name))).toEqual([]);
});

test('every exact version of package.json, overrides included, has its row in "Pinned versions"', () => {
  const operations = readFileSync(path.join(REPO_ROOT, 'docs', 'operations.md'), 'utf8');
  const section = /^### Pinned versions\n([\s\S]*?)^#/m.exec(operations)?.[1] ?? '';
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  const pinned = Object.entries({
    ...manifest.dependencies,
    ...manifest.devDependencies,
    ...manifest.overrides,
  }).filter(([, version]) => /^\d+\.\d+\.\d+$/.test(version));
  expect(pinned.length).toBeGreaterThan(0);
  const unexplained = pinned.filter(
    ([name, version]) => !rows.some((row) => row.includes(`\`${name}\``) && row.includes(`\`${version}\``)),
  );
  expect(unexplained).toEqual([]);
});

const KB = 1024;

/**
 * The bundles over their limit, each at most the size it has now (KB): none may grow, and one that
 * falls under its limit leaves this list. docs/benchmarks/bundles.md names what weighs most in each;
 * docs/dependencies.md ("Bundle sizes") tells what each change added or took away.
 */
const OVER_LIMIT_WHEN_SET: Readonly<Record<string, number>> = {
  settlePayment: 369,
  receiveSandboxInboundPayment: 358,
  createPayment: 353,
  receiveNetworkCredit: 343,
};

test('no bundle is over 300 KB, 400 KB for the QR, report and S3 file functions, nor grows past its size when over', () => {
  const sizes = bundles.map(({ definition, output }) => ({
    name: definition.name,
    kb: Math.ceil(output.bytes / KB),
    limitKb: bundleLimitOf(definition) / KB,
  }));
  expect(sizes.length).toBe(definitions.length);
  expect(new Set(sizes.map((size) => size.limitKb))).toEqual(
    new Set([BUNDLE_LIMIT_BYTES / KB, LARGE_BUNDLE_LIMIT_BYTES / KB]),
  );
  const overAllowance = sizes.filter(({ name, kb, limitKb }) => kb > (OVER_LIMIT_WHEN_SET[name] ?? limitKb));
  expect(overAllowance).toEqual([]);
  // A bundle brought under its limit takes its limit again: its entry above goes.
  const backUnder = sizes.filter(({ name, kb, limitKb }) => name in OVER_LIMIT_WHEN_SET && kb <= limitKb);
  expect(backUnder).toEqual([]);
});

test("a stage's bundles carry its tracer alone: OpenTelemetry's API only where ADOT traces", async () => {
  const getPayment = definitions.find((definition) => definition.name === 'getPayment')!;
  const inputsFor = async (tracer: BundleTracer) => {
    const built = await build({ ...bundleOptions(getPayment, tracer), write: false, metafile: true, sourcemap: false });
    // What the bundle holds: the inputs with bytes in its output (esbuild reads more than it keeps).
    const [output] = Object.values(built.metafile.outputs);
    return Object.entries(output!.inputs).flatMap(([input, { bytesInOutput }]) => (bytesInOutput > 0 ? [input] : []));
  };
  const [xray, otel] = await Promise.all([inputsFor('xray'), inputsFor('otel')]);
  expect(xray).toContain('shared/observability/xray.ts');
  expect(xray.filter((input) => /@opentelemetry|observability\/otel\.ts/.test(input))).toEqual([]);
  expect(otel).toContain('shared/observability/otel.ts');
  expect(otel.some((input) => input.includes('node_modules/@opentelemetry/api/'))).toBe(true);
  expect(otel).not.toContain('shared/observability/xray.ts');
});
