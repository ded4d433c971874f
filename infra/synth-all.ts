/**
 * `npm run synth:all`: synthesizes every stage of infra/stages.ts, through the CDK CLI so that cdk.json
 * (feature flags, context) applies exactly as in `cdk synth`, into one cloud assembly (cdk.out/all, a
 * stack per stage): each function is bundled once for all the stages (infra/app.ts). Production's
 * edge settings live in the operator's cdk.context.json, not in the repository: where none are given,
 * the example ones stand in (infra/edge.ts), so that the check runs offline on any clone; so does the
 * example URL of production's network connector (infra/stages.ts, EXAMPLE_CONNECTOR_URL), the bank's keys and
 * the network's domain (EXAMPLE_BANK_KEYS, EXAMPLE_NETWORK_DOMAIN), and the example
 * alarm e-mail of the stages that keep their data (EXAMPLE_ALARM_EMAIL, or ALARM_EMAIL) where none is given.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { EDGE_CONTEXT_KEY, EXAMPLE_EDGE } from './edge';
import { REPO_ROOT } from './paths';
import {
  ALARM_EMAIL_CONTEXT,
  ALARM_TOPIC_CONTEXT,
  EXAMPLE_ALARM_EMAIL,
  EXAMPLE_CONNECTOR_URL,
  NETWORK_CONNECTOR_URL_CONTEXT,
  NETWORK_BANK_KEYS_CONTEXT,
  NETWORK_DOMAIN_CONTEXT,
  EXAMPLE_BANK_KEYS,
  EXAMPLE_NETWORK_DOMAIN,
} from './stages';

const cdk = path.join(REPO_ROOT, 'node_modules', '.bin', 'cdk');
const outdir = path.join('cdk.out', 'all');
const contextFile = path.join(REPO_ROOT, 'cdk.context.json');
const context = (fs.existsSync(contextFile) ? JSON.parse(fs.readFileSync(contextFile, 'utf8')) : {}) as Record<
  string,
  unknown
>;
const hasEdge = EDGE_CONTEXT_KEY in context;
const edge = hasEdge ? [] : ['-c', `${EDGE_CONTEXT_KEY}=${JSON.stringify({ prod: EXAMPLE_EDGE })}`];
// Production settles through the sponsor bank's connector, whose URL each deployment gives (the
// NETWORK_CONNECTOR_URL variable here, or networkConnectorUrl in cdk.context.json); a synthesis that
// only checks the stacks uses the documentation's example.
const givenConnectorUrl = process.env['NETWORK_CONNECTOR_URL'];
const connector =
  givenConnectorUrl !== undefined
    ? ['-c', `${NETWORK_CONNECTOR_URL_CONTEXT}=${givenConnectorUrl}`]
    : NETWORK_CONNECTOR_URL_CONTEXT in context
      ? []
      : ['-c', `${NETWORK_CONNECTOR_URL_CONTEXT}=${EXAMPLE_CONNECTOR_URL}`];
// And the bank's public keys (NETWORK_BANK_KEYS, or networkBankKeys in cdk.context.json).
const givenBankKeys = process.env['NETWORK_BANK_KEYS'];
const bankKeys =
  givenBankKeys !== undefined
    ? ['-c', `${NETWORK_BANK_KEYS_CONTEXT}=${givenBankKeys}`]
    : NETWORK_BANK_KEYS_CONTEXT in context
      ? []
      : ['-c', `${NETWORK_BANK_KEYS_CONTEXT}=${EXAMPLE_BANK_KEYS}`];
// And the network's own domain (name, certificate, truststore: each from cdk.context.json when there).
const networkDomain = (['domainName', 'certificateArn', 'truststoreUri'] as const)
  .filter((field) => !(NETWORK_DOMAIN_CONTEXT[field] in context))
  .flatMap((field) => ['-c', `${NETWORK_DOMAIN_CONTEXT[field]}=${EXAMPLE_NETWORK_DOMAIN[field]}`]);

// Staging and production need someone their alarms reach (ALARM_EMAIL_CONTEXT); a check uses the example.
const givenAlarmEmail = process.env['ALARM_EMAIL'];
const alarms =
  givenAlarmEmail !== undefined
    ? ['-c', `${ALARM_EMAIL_CONTEXT}=${givenAlarmEmail}`]
    : ALARM_EMAIL_CONTEXT in context || ALARM_TOPIC_CONTEXT in context
      ? []
      : ['-c', `${ALARM_EMAIL_CONTEXT}=${EXAMPLE_ALARM_EMAIL}`];

const examples = [
  ...(hasEdge ? [] : ['the example edge settings']),
  ...(connector.length > 0 && givenConnectorUrl === undefined ? ["the example connector's URL"] : []),
  ...(bankKeys.length > 0 && givenBankKeys === undefined ? ["the example bank's keys"] : []),
  ...(networkDomain.length > 0 ? ["the example network domain's settings"] : []),
  ...(alarms.length > 0 && givenAlarmEmail === undefined ? ['the example alarm e-mail'] : []),
];
console.log(
  `Synthesizing every stage into ${outdir}${examples.length > 0 ? ` (production with ${examples.join(' and ')})` : ''}`,
);
execFileSync(
  cdk,
  [
    'synth',
    '--quiet',
    '-c',
    'stage=all',
    ...edge,
    ...connector,
    ...bankKeys,
    ...networkDomain,
    ...alarms,
    '-o',
    outdir,
  ],
  {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  },
);
