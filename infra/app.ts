/**
 * CDK entry point (cdk.json runs it with tsx). `cdk synth -c stage=prod` picks the stage; the default
 * is dev, and `-c stage=all` synthesizes every stage. Each stage has two stacks: the stage's own,
 * environment-agnostic (no account or region, no lookups), so synthesis works offline and the same
 * template deploys to whichever account and region the credentials point at; and its edge stack
 * (the WAF web ACL), pinned to us-east-1, where CloudFront takes web ACLs.
 */
import { App, Aspects, Tags } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { BrebEdgeStack } from './edge-stack';
import { BrebApiStack, stackTags } from './stack';
import { stages, stageSettings } from './stages';

const app = new App();
// `-c stage=all` (npm run synth:all) puts every stage's stack in one assembly: one process bundles each
// function once for all of them (CDK reuses a bundle whose inputs are the same), where four runs of
// `cdk synth` bundled every function four times.
const requested: string | undefined = app.node.tryGetContext('stage');
const stageNames = requested === 'all' ? Object.keys(stages) : [requested];

for (const settings of stageNames.map(stageSettings)) {
  const stack = new BrebApiStack(app, `BrebMerchantApi-${settings.name}`, {
    settings,
    description: `Bre-B merchant payments API (${settings.name})`,
    // Production cannot be deleted by a stray `cdk destroy`.
    terminationProtection: settings.retainData,
  });
  // The stage's web ACL, in us-east-1 (infra/edge-stack.ts): deployed on its own, before the stage's
  // stack takes its ARN (docs/operations.md, "The edge").
  const edge = new BrebEdgeStack(app, `BrebMerchantEdge-${settings.name}`, {
    settings,
    description: `Bre-B merchant API edge: the WAF web ACL (${settings.name})`,
    terminationProtection: settings.retainData,
    tags: stackTags(settings),
  });
  // The stack carries its tags itself (stack.ts); they are also written on each resource in the
  // template, as before @aws-cdk/core:explicitStackTags, so that adopting the flag changed no resource.
  for (const [key, value] of Object.entries(stackTags(settings))) {
    Tags.of(stack).add(key, value);
    Tags.of(edge).add(key, value);
  }
}

// cdk-nag's AwsSolutions rules run on every synthesis: an open finding is an error annotation, which
// fails `cdk synth` and `cdk deploy`. Accepted findings are suppressed, with their reason, next to
// the resource they concern.
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
