/**
 * The function of one route of the route table: a ServiceFunction (service-function.ts: runtime,
 * bundling, logging, the route's declared rights) with the route's description and timeout, and the
 * one grant every route shares: the shared chain's update of its tenant rate-limit counters.
 */
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { ROUTE_TIMEOUT_SECONDS, type RouteDefinition } from '../../functions/routes';
import { RATE_WINDOW_ATTRIBUTES, RATE_WINDOW_KEY_PREFIX } from '../../shared/data/item-keys';
import { ServiceFunction, type ServiceFunctionProps } from './service-function';

export interface ApiFunctionProps extends Omit<ServiceFunctionProps, 'definition' | 'description' | 'timeout'> {
  readonly route: RouteDefinition;
}

/**
 * The per-tenant rate limit of the shared chain (shared/http/tenant-rate-limit.ts) updates its
 * counters on every request of every route, so every route's role gets this, and it is as narrow as
 * IAM makes it: UpdateItem only, on the table only (no index), on items whose partition key starts
 * with the counters' prefix only, writing or reading in conditions the counters' attributes only, and
 * returning no item. The route table's `tableActions` stay the route's own work.
 */
export function tenantRateLimitStatement(table: ITable): PolicyStatement {
  return new PolicyStatement({
    actions: ['dynamodb:UpdateItem'],
    resources: [table.tableArn],
    conditions: {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${RATE_WINDOW_KEY_PREFIX}*`] },
      // The key attributes are listed too: DynamoDB needs them allowed to find the item.
      'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...RATE_WINDOW_ATTRIBUTES] },
      StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
    },
  });
}

export class ApiFunction extends ServiceFunction {
  readonly route: RouteDefinition;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    const { route, ...common } = props;
    super(scope, id, {
      ...common,
      definition: route,
      description: `${route.method} ${route.paths.join(' ')}`,
      timeout: Duration.seconds(ROUTE_TIMEOUT_SECONDS),
    });
    this.route = route;
    this.function.addToRolePolicy(tenantRateLimitStatement(props.table));
  }
}
