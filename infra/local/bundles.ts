/**
 * The Lambda bundles of a synthesized cloud assembly (what `cdk synth` writes: `npm run build` into
 * dist/cdk.out, the infra tests into a temporary folder), for the local server to run instead of the
 * TypeScript sources: the code that deploys, with its esbuild aliases, externals and entry points.
 *
 * Each route's handler is found as Lambda finds it. The template names every function's code folder
 * (`aws:asset:path` metadata, which `cdk synth` writes unless told --no-asset-metadata) and its
 * handler (`index.handler`: the export `handler` of index.js, .mjs or .cjs in that folder); the
 * construct path (`aws:cdk:path`, unless --no-path-metadata) names its route, since each route's
 * function has the route's name as its id, in its family's nested stack (route-family-stack.ts), whose
 * template is a file of the assembly that the stage's template names (`aws:asset:path` again).
 *
 * A bundle resolves the imports it left out of itself from the node_modules above its folder, where
 * Lambda has none: only an assembly outside the repository (the tests write theirs to the temporary
 * folder) fails on such an import as Lambda does.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ASSET_RESOURCE_METADATA_PATH_KEY, CloudAssembly, PATH_METADATA_KEY } from 'aws-cdk-lib/cx-api';
import type { LambdaHandler, LoadableFunction } from './server';

/** The files Lambda's Node.js runtime tries for a handler's module, in its order. */
const MODULE_EXTENSIONS = ['.js', '.mjs', '.cjs'] as const;

/**
 * `<stack>/<Family>Routes/<route name>/Function/Resource`: a route's function in its family's nested
 * stack; `<stack>/serveContract/Function/Resource`, the API description's, in the stage's own.
 */
const ROUTE_FUNCTION_PATH = /^[^/]+\/(?:[A-Za-z]+Routes\/)?([^/]+)\/Function\/Resource$/;

export interface LambdaBundle {
  /** The module Lambda loads. */
  readonly file: string;
  /** The export it calls. */
  readonly exportName: string;
}

/** The CloudFormation of a function, or of a nested stack, as far as finding its code goes. */
interface FunctionResource {
  readonly Type: string;
  readonly Metadata?: Record<string, unknown>;
  readonly Properties?: { readonly Handler?: string };
}

/** The bundle of every route function in the assembly's stack (it must hold one stack), by route name. */
export function lambdaBundles(assemblyDir: string): Map<string, LambdaBundle> {
  const assembly = new CloudAssembly(assemblyDir);
  const [stack, ...others] = assembly.stacks;
  if (!stack || others.length > 0) {
    throw new Error(
      `${assemblyDir} holds ${assembly.stacks.length} stacks; synthesize one stage into it (npm run build)`,
    );
  }
  const bundles = new Map<string, LambdaBundle>();
  for (const [logicalId, resource] of resourcesWithNested(assemblyDir, stack.template as TemplateResources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    const route = ROUTE_FUNCTION_PATH.exec(String(resource.Metadata?.[PATH_METADATA_KEY] ?? ''))?.[1];
    if (!route) continue;
    const asset = resource.Metadata?.[ASSET_RESOURCE_METADATA_PATH_KEY];
    const handler = resource.Properties?.Handler ?? '';
    const separator = handler.lastIndexOf('.');
    if (typeof asset !== 'string' || separator < 1) {
      throw new Error(`${logicalId} (${route}): no code folder (synthesize with asset metadata) or no handler`);
    }
    const base = path.join(assemblyDir, asset, handler.slice(0, separator));
    const file = MODULE_EXTENSIONS.map((extension) => base + extension).find((candidate) => existsSync(candidate));
    if (!file) throw new Error(`${route}: no module for the handler ${handler} in ${path.join(assemblyDir, asset)}`);
    bundles.set(route, { file, exportName: handler.slice(separator + 1) });
  }
  return bundles;
}

/** Every resource of a template and of the nested stacks' templates it names, by logical id. */
function* resourcesWithNested(assemblyDir: string, template: TemplateResources): Generator<[string, FunctionResource]> {
  for (const [logicalId, resource] of Object.entries(template.Resources)) {
    yield [logicalId, resource];
    const nestedTemplate = resource.Metadata?.[ASSET_RESOURCE_METADATA_PATH_KEY];
    if (resource.Type === 'AWS::CloudFormation::Stack' && typeof nestedTemplate === 'string') {
      const file = path.join(assemblyDir, nestedTemplate);
      yield* resourcesWithNested(assemblyDir, JSON.parse(readFileSync(file, 'utf8')) as TemplateResources);
    }
  }
}

/** A template, as far as finding the functions goes. */
interface TemplateResources {
  readonly Resources: Record<string, FunctionResource>;
}

/** A LocalServerOptions.loadHandler that runs each route's bundle from the assembly. */
export function bundleLoader(assemblyDir: string): (route: LoadableFunction) => Promise<LambdaHandler> {
  const bundles = lambdaBundles(assemblyDir);
  return async (route) => {
    const bundle = bundles.get(route.name);
    if (!bundle) throw new Error(`${assemblyDir} has no function for the route ${route.name}`);
    const module = (await import(pathToFileURL(bundle.file).href)) as Record<string, unknown>;
    const handler = module[bundle.exportName];
    if (typeof handler !== 'function') {
      throw new Error(`${bundle.file} exports no function ${bundle.exportName}, which the template names`);
    }
    return handler as LambdaHandler;
  };
}
