/**
 * The stage's templates and their room: the route functions in a nested stack per family
 * (infra/constructs/route-family-stack.ts), every template within the bar we keep under
 * CloudFormation's limits, with room for more routes; and the split deployable onto a stage that
 * predates it, which keeps every stateful resource and every route as they were.
 */
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnElement, NestedStack, Stack } from 'aws-cdk-lib';
import { stages, type StageName } from '../../infra/stages';
import { familyStacksOf, synth, type Json, type Synth } from './synth';
import beforeTheSplit from './before-the-split.json' with { type: 'json' };

/** Our bar, under CloudFormation's 500 resources, 200 parameters and 200 outputs per template. */
const MAX_RESOURCES = 300;
const MAX_PARAMETERS = 120;
const MAX_OUTPUTS = 200;
/** The routes each family's stack must still take, and the shared stacks as many for any one family. */
const ROUTE_ROOM = 10;

const stageNames = Object.keys(stages) as StageName[];

interface Counts {
  readonly resources: number;
  readonly parameters: number;
  readonly outputs: number;
}

const countsOf = (stack: Stack): Counts => {
  const template = Template.fromStack(stack).toJSON();
  return {
    resources: Object.keys(template.Resources).length,
    parameters: Object.keys(template.Parameters ?? {}).length,
    outputs: Object.keys(template.Outputs ?? {}).length,
  };
};

/** How many more of a thing costing `perRoute` of each count fit under the bar. */
const roomFor = (counts: Counts, perRoute: Partial<Counts>): number =>
  Math.min(
    ...(
      [
        [counts.resources, perRoute.resources, MAX_RESOURCES],
        [counts.parameters, perRoute.parameters, MAX_PARAMETERS],
        [counts.outputs, perRoute.outputs, MAX_OUTPUTS],
      ] as const
    )
      .filter(([, cost]) => cost)
      .map(([count, cost, max]) => Math.floor((max - count) / cost!)),
  );

/**
 * Each template, what it holds and how many more routes it takes. A route costs its family's stack
 * what its routes cost there on average (function, role, policy, log group, permission, integration),
 * and two outputs (the integration's id, which the stage's routes name, and the function's name,
 * which the monitoring reads); the stage's stack its paths (one route each, on the API); the
 * monitoring two alarms and a parameter (the function's name).
 */
function roomsOf(synthed: Synth) {
  const { stack } = synthed;
  const families = familyStacksOf(stack) as (NestedStack & { routes: readonly { paths: readonly string[] }[] })[];
  const routes = families.flatMap((family) => family.routes);
  const pathsPerRoute = routes.reduce((sum, route) => sum + route.paths.length, 0) / routes.length;
  return [
    ...families.map((family) => {
      const counts = countsOf(family);
      const perRoute = { resources: Math.ceil(counts.resources / family.routes.length), outputs: 2 };
      return { template: family.node.id, counts, room: roomFor(counts, perRoute), wanted: ROUTE_ROOM };
    }),
    ((counts) => ({
      template: 'the stage',
      counts,
      // Every family's room at once.
      room: roomFor(counts, { resources: pathsPerRoute }),
      wanted: ROUTE_ROOM * families.length,
    }))(countsOf(stack)),
    ((counts) => ({
      template: 'Monitoring',
      counts,
      room: roomFor(counts, { resources: 2, parameters: 1 }),
      wanted: ROUTE_ROOM,
    }))(countsOf(stack.monitoring)),
  ];
}

describe.each(stageNames)('split.suite: templates of stage %s', (stage) => {
  const rooms = roomsOf(synth(stage));

  test.each(rooms.map((room) => [room.template, room.counts.resources, room.room, room.wanted, room] as const))(
    '%s: %d resources, room for %d more routes (at least %d)',
    (_template, _resources, _room, _wanted, { counts, room, wanted }) => {
      expect(counts.resources).toBeLessThanOrEqual(MAX_RESOURCES);
      expect(counts.parameters).toBeLessThanOrEqual(MAX_PARAMETERS);
      expect(counts.outputs).toBeLessThanOrEqual(MAX_OUTPUTS);
      expect(room).toBeGreaterThanOrEqual(wanted);
    },
  );

  test("the dashboard's stack, which takes nothing of a route, within the bar too", () => {
    const { dashboard } = synth(stage).stack;
    if (!dashboard) return;
    const counts = countsOf(dashboard);
    expect(counts.resources).toBeLessThanOrEqual(MAX_RESOURCES);
    expect(counts.parameters).toBeLessThanOrEqual(MAX_PARAMETERS);
  });

  test('every family of routes has a stack of its own, and no route function is left in the stage', () => {
    const { stack } = synth(stage);
    const families = familyStacksOf(stack) as (NestedStack & { functions: ReadonlyMap<string, unknown> })[];
    expect(families.flatMap((family) => [...family.functions.keys()]).sort()).toEqual(
      [...stack.functions.keys(), ...stack.networkFunctions.keys()].sort(),
    );
    const own = Template.fromStack(stack).findResources('AWS::Lambda::Function');
    // The workers, the API's description and, with Cognito, the sign-in trigger.
    expect(Object.keys(own)).toHaveLength(
      stack.workers.size + 1 + (stack.settings.identity.kind === 'cognito' ? 1 : 0),
    );
  });
});

/**
 * Before the split (commit 60fc9a4), by template: the logical id and type of every stateful resource
 * (the table, the user pool and its clients, the queues, the secrets and their key, the buckets, the
 * API, its stage and authorizer, the log groups of the functions that stayed, the nested stacks), and
 * every route with its key, authorizer and scopes. A logical id that changed would make
 * CloudFormation replace the resource: a new, empty table or user pool.
 */
const before = beforeTheSplit as Record<
  StageName,
  Record<string, { stateful: Record<string, string>; routes?: Record<string, RouteBefore> }>
>;

interface RouteBefore {
  readonly routeKey: string;
  readonly authorizationType: string;
  readonly authorizerId: Json;
  readonly scopes: readonly string[];
}

/**
 * The scopes routes were given on purpose since the split, by route key: a report of every payment
 * with its payers' data needs breb/reports.write (docs/security.md).
 */
const SCOPES_SINCE_THE_SPLIT: Readonly<Record<string, readonly string[]>> = {
  'POST /v1/reports': ['breb/reports.write'],
};

const withChangesSinceTheSplit = (routes: Record<string, RouteBefore>): Record<string, RouteBefore> =>
  Object.fromEntries(
    Object.entries(routes).map(([id, route]) => [
      id,
      { ...route, scopes: SCOPES_SINCE_THE_SPLIT[route.routeKey] ?? route.scopes },
    ]),
  );

describe.each(stageNames)('split.suite: deploying the split onto stage %s', (stage) => {
  let templates: Record<string, Json>;

  beforeAll(() => {
    const { stack } = synth(stage);
    const nested = [stack.monitoring, ...(stack.dashboard ? [stack.dashboard] : [])];
    templates = Object.fromEntries([
      ['.', Template.fromStack(stack).toJSON()],
      ...nested.map((child) => [child.node.id, Template.fromStack(child).toJSON()]),
    ]);
  });

  test.each(
    Object.entries(before[stage]).map(([path, { stateful }]) => [path, Object.keys(stateful).length, stateful]),
  )('template %s keeps its %d stateful resources, each under its logical id', (path, _count, stateful) => {
    const resources = templates[path as string].Resources as Record<string, Json>;
    const now = Object.fromEntries(Object.keys(stateful).map((id) => [id, resources[id]?.Type]));
    expect(now).toEqual(stateful);
  });

  test('every route keeps its logical id, key, authorizer and scopes', () => {
    const resources = templates['.'].Resources as Record<string, Json>;
    const routes = before[stage]['.']!.routes!;
    const now = Object.fromEntries(
      Object.keys(routes).map((id) => {
        const properties = resources[id]?.Properties ?? {};
        return [
          id,
          {
            routeKey: properties.RouteKey,
            authorizationType: properties.AuthorizationType ?? 'NONE',
            authorizerId: properties.AuthorizerId ?? null,
            scopes: properties.AuthorizationScopes ?? [],
          },
        ];
      }),
    );
    expect(now).toEqual(withChangesSinceTheSplit(routes));
  });

  test('every route reaches its function through its family stack', () => {
    const resources = templates['.'].Resources as Record<string, Json>;
    const { stack } = synth(stage);
    const contractRoutes = new Set(
      stack.contractRoutes.map((route) => stack.getLogicalId(route.node.defaultChild as CfnElement)),
    );
    const routes = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::ApiGatewayV2::Route');
    expect(routes.length).toBeGreaterThan(contractRoutes.size);
    for (const [, route] of routes.filter(([id]) => !contractRoutes.has(id))) {
      const target = JSON.stringify(route.Properties.Target);
      // integrations/<the id of the integration the route's family stack outputs>
      expect(target).toMatch(/"integrations\/",\{"Fn::GetAtt":\["[A-Za-z]+RoutesNestedStack[A-Za-z]+Routes/);
    }
  });
});
