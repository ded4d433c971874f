/**
 * `npm run synth:all`: synthesizes every stage of infra/stages.ts, through the CDK CLI so that cdk.json
 * (feature flags, context) applies exactly as in `cdk synth`, into one cloud assembly (cdk.out/all, a
 * stack per stage): each function is bundled once for all the stages (infra/app.ts). Production's
 * edge settings live in the operator's cdk.context.json, not in the repository: where none are given,
 * the example ones stand in (infra/edge.ts), so that the check runs offline on any clone.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { EDGE_CONTEXT_KEY, EXAMPLE_EDGE } from './edge';
import { REPO_ROOT } from './paths';

const cdk = path.join(REPO_ROOT, 'node_modules', '.bin', 'cdk');
const outdir = path.join('cdk.out', 'all');
const contextFile = path.join(REPO_ROOT, 'cdk.context.json');
const hasEdge = fs.existsSync(contextFile) && EDGE_CONTEXT_KEY in JSON.parse(fs.readFileSync(contextFile, 'utf8'));
const edge = hasEdge ? [] : ['-c', `${EDGE_CONTEXT_KEY}=${JSON.stringify({ prod: EXAMPLE_EDGE })}`];

console.log(`Synthesizing every stage into ${outdir}${hasEdge ? '' : ' (production with the example edge settings)'}`);
execFileSync(cdk, ['synth', '--quiet', '-c', 'stage=all', ...edge, '-o', outdir], { cwd: REPO_ROOT, stdio: 'inherit' });
