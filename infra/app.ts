/**
 * CDK entry point (cdk.json runs it with tsx). `cdk synth -c stage=prod` picks the stage; the default
 * is dev, and `-c stage=all` synthesizes every stage. The stack is environment-agnostic (no account or
 * region, no lookups), so synthesis works offline and the same template deploys to whichever account
 * the credentials point at.
 */
import { App, Aspects, Tags } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
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
  // The stack carries its tags itself (stack.ts); they are also written on each resource in the
  // template, as before @aws-cdk/core:explicitStackTags, so that adopting the flag changed no resource.
  for (const [key, value] of Object.entries(stackTags(settings))) Tags.of(stack).add(key, value);
}

// cdk-nag's AwsSolutions rules run on every synthesis: an open finding is an error annotation, which
// fails `cdk synth` and `cdk deploy`. Accepted findings are suppressed, with their reason, next to
// the resource they concern.
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
