/**
 * `npm run synth:all`: synthesizes every stage of infra/stages.ts into cdk.out/<stage>, through the
 * CDK CLI so that cdk.json (feature flags, context) applies exactly as in `cdk synth`. Each stage gets
 * its own output directory because one cloud assembly holds one stage.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './paths';
import { stages } from './stages';

const cdk = path.join(REPO_ROOT, 'node_modules', '.bin', 'cdk');

for (const stage of Object.keys(stages)) {
  const outdir = path.join('cdk.out', stage);
  console.log(`Synthesizing ${stage} into ${outdir}`);
  execFileSync(cdk, ['synth', '--quiet', '-c', `stage=${stage}`, '-o', outdir], { cwd: REPO_ROOT, stdio: 'inherit' });
}
