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
  // From cdk.context.json an object; from the command line (`-c edge='{...}'`) its JSON.
  const context: unknown = scope.node.tryGetContext(EDGE_CONTEXT_KEY) ?? {};
  const all = (typeof context === 'string' ? JSON.parse(context) : context) as Record<
    string,
    Partial<EdgeSettings> | undefined
  >;
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

/**
 * Edge settings as an operator gives them (docs/operations.md, "The edge"), for the checks that
 * synthesize production without its real ones (the CDK tests, `npm run synth:all`): example names
 * and ARNs, never deployed.
 */
export const EXAMPLE_EDGE: EdgeSettings = {
  domainName: 'api.merchants.example.com',
  certificateArn: 'arn:aws:acm:us-east-1:111122223333:certificate/0e1f2a3b-4c5d-6e7f-8091-a2b3c4d5e6f7',
  originDomainName: 'origin.api.merchants.example.com',
  originCertificateArn: 'arn:aws:acm:us-east-2:111122223333:certificate/1a2b3c4d-5e6f-7081-92a3-b4c5d6e7f809',
  webAclArn:
    'arn:aws:wafv2:us-east-1:111122223333:global/webacl/breb-merchant-api-prod/3f2e1d0c-b9a8-4765-8432-10fedcba9876',
};
