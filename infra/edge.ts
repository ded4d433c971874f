/**
 * The edge settings of a stage (infra/stages.ts, EdgeSettings), from the CDK context: names,
 * certificates and the web ACL exist before the stage's stack and outside it, so an operator gives
 * them in cdk.context.json (docs/operations.md, "The edge"):
 *
 *   { "edge": { "prod": { "domainName": "...", "certificateArn": "...", "originDomainName": "...",
 *                          "originCertificateArn": "...", "webAclArn": "..." } } }
 */
import type { Construct } from 'constructs';
import type { EdgeSettings, StageSettings } from './stages';

/** The context key that holds every stage's edge settings, by stage name. */
export const EDGE_CONTEXT_KEY = 'edge';

export const EDGE_SETTING_NAMES: readonly (keyof EdgeSettings)[] = [
  'domainName',
  'certificateArn',
  'originDomainName',
  'originCertificateArn',
  'webAclArn',
];

/**
 * The stage's edge settings, or undefined where the stage has none and needs none. A stage that
 * requires its edge (production) fails to synthesize without every setting, naming the missing ones.
 */
export function edgeSettingsOf(scope: Construct, settings: StageSettings): EdgeSettings | undefined {
  const all = (scope.node.tryGetContext(EDGE_CONTEXT_KEY) ?? {}) as Record<string, Partial<EdgeSettings> | undefined>;
  const given = all[settings.name];
  if (!given && !settings.edge.required) return undefined;
  const missing = EDGE_SETTING_NAMES.filter((name) => typeof given?.[name] !== 'string' || given[name] === '');
  if (missing.length > 0) {
    throw new Error(
      `Stage ${settings.name} needs its edge settings in the CDK context "${EDGE_CONTEXT_KEY}" → "${settings.name}": ` +
        `missing ${missing.join(', ')} (docs/operations.md, "The edge")`,
    );
  }
  return given as EdgeSettings;
}
