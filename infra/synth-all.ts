/**
 * `npm run synth:all`: synthesizes every stage of infra/stages.ts, through the CDK CLI so that cdk.json
 * (feature flags, context) applies exactly as in `cdk synth`, into one cloud assembly (cdk.out/all, a
 * stack per stage): each function is bundled once for all the stages (infra/app.ts).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './paths';
import { EXAMPLE_CONNECTOR_URL } from './stages';

const cdk = path.join(REPO_ROOT, 'node_modules', '.bin', 'cdk');
const outdir = path.join('cdk.out', 'all');
console.log(`Synthesizing every stage into ${outdir}`);
// Production settles through the sponsor bank's connector, whose URL each deployment gives; a synthesis
// that only checks the stacks uses the documentation's example.
const connectorUrl = process.env['NETWORK_CONNECTOR_URL'] ?? EXAMPLE_CONNECTOR_URL;
execFileSync(cdk, ['synth', '--quiet', '-c', 'stage=all', '-c', `networkConnectorUrl=${connectorUrl}`, '-o', outdir], {
  cwd: REPO_ROOT,
  stdio: 'inherit',
});
