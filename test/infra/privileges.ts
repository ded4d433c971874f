/**
 * The least-privilege check: everything an execution role allows, compared with what its route
 * declares. A role may hold only
 * - the route's table actions, on the table and its indexes;
 * - writing its own log group (the role has no managed policy);
 * - X-Ray's two write actions, on "*" (X-Ray has no resource-level permissions);
 * - GetSecretValue on each secret the route names in `secrets`;
 * - the shared chain's UpdateItem of the per-tenant rate-limit counters: on the table alone (no
 *   index), only items whose partition key has the counters' prefix, only the counters' attributes,
 *   returning no item. Exactly this statement; the same action granted any wider is a problem.
 * Powertools Metrics needs no right: it writes EMF lines to the function's log.
 */
import type { RouteDefinition } from '../../functions/routes';
import { RATE_WINDOW_ATTRIBUTES, RATE_WINDOW_KEY_PREFIX } from '../../shared/data/item-keys';
import { asArray, functionLogicalId, logicalIdOf, resourcesOf, roleStatements, type Json, type Synth } from './synth';

export const XRAY_ACTIONS = ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'];
export const LOG_ACTIONS = ['logs:CreateLogStream', 'logs:PutLogEvents'];

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

const tableArnOf = (synthed: Synth): Json => ({ 'Fn::GetAtt': [logicalIdOf(synthed, synthed.stack.table), 'Arn'] });

/** The one statement that lets a role update the rate-limit counters, and nothing else of the table. */
const tenantRateLimitGrant = (synthed: Synth): Json => ({
  Action: ['dynamodb:UpdateItem'],
  Condition: {
    'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${RATE_WINDOW_KEY_PREFIX}*`] },
    'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...RATE_WINDOW_ATTRIBUTES] },
    StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
  },
  Effect: 'Allow',
  Resource: [tableArnOf(synthed)],
});

const isTenantRateLimitGrant = (synthed: Synth, statement: Json): boolean =>
  same(
    { ...statement, Action: asArray(statement.Action), Resource: asArray(statement.Resource) },
    tenantRateLimitGrant(synthed),
  );

/** The statements of a route's role that are exactly the rate-limit counters' grant. */
export const tenantRateLimitGrants = (synthed: Synth, route: RouteDefinition): Json[] =>
  roleStatements(synthed, route.name).filter((statement) => isTenantRateLimitGrant(synthed, statement));

/** What a route's role allows beyond what the route declares, one line per problem. */
export function permissionProblems(synthed: Synth, route: RouteDefinition): string[] {
  const { stack } = synthed;
  const fn = stack.functions.get(route.name)!;
  const tableArn = tableArnOf(synthed);
  const tableResources = [tableArn, { 'Fn::Join': ['', [tableArn, '/index/*']] }];
  const logGroupArn = { 'Fn::GetAtt': [logicalIdOf(synthed, fn.logGroup), 'Arn'] };
  const secretRefs = (route.secrets ?? []).map((name) => ({
    Ref: logicalIdOf(synthed, stack.secrets.byName[name]),
  }));

  const problems: string[] = [];
  for (const statement of roleStatements(synthed, route.name)) {
    if (statement.Effect !== 'Allow' || isTenantRateLimitGrant(synthed, statement)) continue;
    if (statement.NotAction || statement.NotResource)
      problems.push(`NotAction/NotResource in ${JSON.stringify(statement)}`);
    const resources = asArray<Json>(statement.Resource);
    for (const action of asArray<string>(statement.Action)) {
      const [service, name = ''] = action.split(':');
      const allowedOn = (expected: Json[], why: string): void => {
        if (!same(resources, expected)) problems.push(`${action} on ${JSON.stringify(resources)} (${why})`);
      };
      if (action.includes('*')) problems.push(`${action}: wildcard action`);
      else if (service === 'dynamodb' && route.tableActions.includes(name as never)) {
        allowedOn(tableResources, 'only the table and its indexes');
      } else if (XRAY_ACTIONS.includes(action)) allowedOn(['*'], 'X-Ray takes no resource');
      else if (LOG_ACTIONS.includes(action)) allowedOn([logGroupArn], "only the function's own log group");
      else if (action === 'secretsmanager:GetSecretValue' && secretRefs.length > 0) {
        for (const resource of resources) {
          if (!secretRefs.some((ref) => same(ref, resource))) problems.push(`${action} on ${JSON.stringify(resource)}`);
        }
      } else problems.push(`${action}: not declared by the route`);
    }
  }
  return problems;
}

/** The table actions granted to a route's role for its own work (the rate-limit counters' grant aside). */
export const grantedTableActions = (synthed: Synth, route: RouteDefinition): string[] =>
  roleStatements(synthed, route.name)
    .filter((statement) => !isTenantRateLimitGrant(synthed, statement))
    .flatMap((s) => asArray<string>(s.Action))
    .filter((a) => a.startsWith('dynamodb:'))
    .sort();

/** The managed policies of a route's execution role. */
export function managedPolicies(synthed: Synth, route: RouteDefinition): Json[] {
  const resources = resourcesOf(synthed);
  const roleId: string = resources[functionLogicalId(synthed, route.name)].Properties.Role['Fn::GetAtt'][0];
  return asArray(resources[roleId].Properties.ManagedPolicyArns);
}
