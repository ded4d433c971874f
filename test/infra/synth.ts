/**
 * Synthesis for the CDK tests: the stack of one stage, with cdk.json's feature flags so the tests
 * see the template `cdk synth` produces. Bundling is skipped (context `aws:cdk:bundling-stacks` =
 * []) unless a test asks for it, so most tests run in seconds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { App, Aspects, Stack, type NestedStack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks, type NagPackProps } from 'cdk-nag';
import type { RouteDefinition } from '../../functions/routes';
import type { ServiceFunction } from '../../infra/constructs/service-function';
import { REPO_ROOT } from '../../infra/paths';
import { BrebApiStack } from '../../infra/stack';
import { EDGE_CONTEXT_KEY, EXAMPLE_EDGE } from '../../infra/edge';
import {
  ALARM_EMAIL_CONTEXT,
  EXAMPLE_ALARM_EMAIL,
  EXAMPLE_CONNECTOR_URL,
  NETWORK_CONNECTOR_URL_CONTEXT,
  NETWORK_BANK_KEYS_CONTEXT,
  NETWORK_DOMAIN_CONTEXT,
  EXAMPLE_BANK_KEYS,
  EXAMPLE_NETWORK_DOMAIN,
  stageSettings,
  type StageName,
  type StageSettings,
} from '../../infra/stages';

/** CloudFormation resources are untyped JSON. */
export type Json = any;

/** The feature flags of cdk.json, so the tests see the same template as `cdk synth`. */
const cdkContext: Record<string, unknown> = JSON.parse(
  fs.readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8'),
).context;

export interface SynthOptions {
  /** Really run esbuild, writing the assets (and their metadata) into `outdir`. */
  readonly bundle?: { readonly outdir: string };
  /** Changes the stack before synthesis (an app synthesizes only once). */
  readonly modify?: (stack: BrebApiStack) => void;
  /** Routes instead of the route table (synthetic routes for features no route uses yet). */
  readonly routes?: readonly RouteDefinition[];
  /** Changes the stage settings (e.g. an alarm e-mail). */
  readonly settings?: (settings: StageSettings) => StageSettings;
  /** Runs cdk-nag's AwsSolutions pack on the app, as infra/app.ts does. */
  readonly nag?: NagPackProps;
  /**
   * Context values besides cdk.json's (`-c name=value`), instead of the examples: production's edge
   * settings default to EXAMPLE_EDGE (`{ edge: {} }` gives none), its connector URL, the bank's keys
   * and the network's domain to the documentation's examples, and the alarms' e-mail to EXAMPLE_ALARM_EMAIL, as `npm run synth:all`
   * passes them (`{ networkConnectorUrl: undefined }` synthesizes without it).
   */
  readonly context?: Record<string, unknown>;
}

export { EXAMPLE_EDGE };

/**
 * The stage's stack as `cdk synth` makes it: synthesized once per stage and shared by every suite of
 * templates.test.ts (the same module registry), since a synthesis costs seconds and the suites only
 * read it. A synthesis with options (bundles, a change, other routes or settings, cdk-nag) is its own.
 */
export function synth(stage: StageName, options: SynthOptions = {}): Synth {
  if (Object.keys(options).length > 0) return synthesize(stage, options);
  let synthed = synthesized.get(stage);
  if (!synthed) synthesized.set(stage, (synthed = synthesize(stage, {})));
  return synthed;
}

const synthesized = new Map<StageName, Synth>();

function synthesize(stage: StageName, options: SynthOptions) {
  const context = {
    ...cdkContext,
    [EDGE_CONTEXT_KEY]: { prod: EXAMPLE_EDGE },
    [NETWORK_CONNECTOR_URL_CONTEXT]: EXAMPLE_CONNECTOR_URL,
    [NETWORK_BANK_KEYS_CONTEXT]: EXAMPLE_BANK_KEYS,
    [NETWORK_DOMAIN_CONTEXT.domainName]: EXAMPLE_NETWORK_DOMAIN.domainName,
    [NETWORK_DOMAIN_CONTEXT.certificateArn]: EXAMPLE_NETWORK_DOMAIN.certificateArn,
    [NETWORK_DOMAIN_CONTEXT.truststoreUri]: EXAMPLE_NETWORK_DOMAIN.truststoreUri,
    [ALARM_EMAIL_CONTEXT]: EXAMPLE_ALARM_EMAIL,
    ...options.context,
    stage,
    // With bundles, the metadata `cdk synth` writes by default: each function's code folder and construct
    // path, by which the local server finds a route's bundle (infra/local/bundles.ts).
    ...(options.bundle
      ? { 'aws:cdk:enable-asset-metadata': true, 'aws:cdk:enable-path-metadata': true }
      : { 'aws:cdk:bundling-stacks': [] }),
  };
  const app = new App({ context, ...(options.bundle ? { outdir: options.bundle.outdir } : {}) });
  const base = stageSettings(stage);
  const settings = options.settings ? options.settings(base) : base;
  const stack = new BrebApiStack(app, `BrebMerchantApi-${stage}`, {
    settings,
    ...(options.routes ? { routes: options.routes } : {}),
  });
  options.modify?.(stack);
  if (options.nag) Aspects.of(app).add(new AwsSolutionsChecks(options.nag));
  return { app, stack, settings, template: Template.fromJSON(withFamiliesMerged(stack)) };
}

/** The nested stacks of the route families (infra/constructs/route-family-stack.ts). */
export const familyStacksOf = (stack: BrebApiStack): NestedStack[] => [...stack.routeFamilies, stack.networkFamily];

/**
 * The stage's template with its route families' nested templates merged in, as if their resources
 * were the stage's own: each family's parameters replaced by what the stage's stack passes it, each of
 * its outputs that the stage's stack reads replaced by its value. So the suites read a route's
 * function, role and grants in the stage's own terms (`{ Ref: <the table> }`), wherever it deploys;
 * the room test and the split test (stack.suite.ts) read each template as it is.
 */
function withFamiliesMerged(stack: BrebApiStack): Json {
  const merged = structuredClone(Template.fromStack(stack).toJSON());
  const outputs = new Map<string, Record<string, Json>>();
  for (const family of familyStacksOf(stack)) {
    const id = stack.getLogicalId(family.nestedStackResource!);
    const passed: Record<string, Json> = merged.Resources[id].Properties.Parameters ?? {};
    const template = replaced(Template.fromStack(family).toJSON(), (node) =>
      typeof node.Ref === 'string' && node.Ref in passed ? passed[node.Ref] : undefined,
    );
    for (const [logicalId, resource] of Object.entries(template.Resources)) {
      if (logicalId in merged.Resources) throw new Error(`${logicalId} is both the stage's and ${id}'s`);
      merged.Resources[logicalId] = resource;
    }
    outputs.set(id, template.Outputs ?? {});
    delete merged.Resources[id];
  }
  return replaced(merged, (node) => {
    const [id, attribute] = (node['Fn::GetAtt'] ?? []) as [string?, string?];
    return id && outputs.has(id) ? outputs.get(id)![String(attribute).replace(/^Outputs\./, '')].Value : undefined;
  });
}

/** A copy of a template's JSON in which each object `replace` answers for is replaced by its answer. */
function replaced(node: Json, replace: (node: Record<string, Json>) => Json): Json {
  if (Array.isArray(node)) return node.map((item) => replaced(item, replace));
  if (node === null || typeof node !== 'object') return node;
  const replacement = replace(node);
  if (replacement !== undefined) return replacement;
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, replaced(value, replace)]));
}

export type Synth = ReturnType<typeof synthesize>;

export function asArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

export const resourcesOf = ({ template }: Synth): Record<string, Json> => template.toJSON().Resources;

/** A construct's logical id in its own stack's template (the stage's, or a nested stack's). */
export const logicalIdOf = (_synthed: Synth, construct: { node: { defaultChild?: unknown } }): string => {
  const resource = construct.node.defaultChild as CfnFunction;
  return Stack.of(resource).getLogicalId(resource);
};

/**
 * A nested stack of the stage's (the monitoring, the dashboard): its template; what the stage's
 * stack passes it for a parameter it reads (`{ Ref: <parameter> }`: the stage's own reference); and
 * the nested stack's value behind a `Fn::GetAtt` of its outputs in the stage's template.
 */
export function nestedOf(synthed: Synth, nested: NestedStack) {
  const template = Template.fromStack(nested);
  const stackId = synthed.stack.getLogicalId(nested.nestedStackResource!);
  const parameters: Record<string, Json> = resourcesOf(synthed)[stackId].Properties.Parameters ?? {};
  return {
    template,
    resources: (): Record<string, Json> => template.toJSON().Resources,
    passed: (reference: Json): Json => parameters[reference.Ref],
    outputOf: (getAtt: Json): Json => {
      const [id, attribute] = getAtt['Fn::GetAtt'] as [string, string];
      if (id !== stackId) throw new Error(`${id} is not this nested stack (${stackId})`);
      return template.toJSON().Outputs[attribute.replace(/^Outputs\./, '')].Value;
    },
  };
}

export type Nested = ReturnType<typeof nestedOf>;

/** The function of a route, a worker, the contract or the sign-in trigger, by its name. */
export function serviceFunction({ stack }: Synth, name: string): ServiceFunction {
  const fn = stack.serviceFunctions.get(name);
  if (!fn) throw new Error(`No function named ${name}`);
  return fn;
}

export const functionLogicalId = (synthed: Synth, name: string): string =>
  logicalIdOf(synthed, serviceFunction(synthed, name).function);

/** Every IAM statement attached to the execution role of one of our functions. */
export function roleStatements(synthed: Synth, name: string): Json[] {
  const resources = resourcesOf(synthed);
  const roleId: string = resources[functionLogicalId(synthed, name)].Properties.Role['Fn::GetAtt'][0];
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy')
    .filter((r) => asArray(r.Properties.Roles).some((role: Json) => role.Ref === roleId))
    .flatMap((r) => asArray(r.Properties.PolicyDocument.Statement));
}
