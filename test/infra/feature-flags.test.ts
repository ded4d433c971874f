/**
 * cdk.json's feature flags: every flag this CDK version recommends for new projects, each at its
 * recommended value, and each in docs/cdk-feature-flags.md with what it changes in our templates.
 * A CDK upgrade that recommends a new flag fails here until the flag is synthesized, diffed and
 * written down (or kept off: false in cdk.json, with its reason in KEPT_OFF and the document).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CURRENTLY_RECOMMENDED_FLAGS } from 'aws-cdk-lib/cx-api';
import { REPO_ROOT } from '../../infra/paths';

/** Recommended flags cdk.json sets to false instead, each with the reason (docs/cdk-feature-flags.md). */
const KEPT_OFF: Readonly<Record<string, string>> = {
  '@aws-cdk/core:annotationsInValidationReport':
    "It turns cdk-nag's error annotations into a failure of the synthesis itself, so nag.suite.ts " +
    'could no longer synthesize with the suppressions ignored and count the findings they hide.',
};

const context: Record<string, unknown> = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')).context;
const flags = Object.fromEntries(Object.entries(context).filter(([name]) => name.startsWith('@aws-cdk')));
const document = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'cdk-feature-flags.md'), 'utf8');

test('cdk.json sets every recommended flag to its recommended value (but those kept off), and no other', () => {
  const keptOff = Object.fromEntries(Object.keys(KEPT_OFF).map((name) => [name, false]));
  expect(flags).toEqual({ ...CURRENTLY_RECOMMENDED_FLAGS, ...keptOff });
  // The stage is the only other setting.
  expect(Object.keys(context).filter((name) => !(name in flags))).toEqual(['stage']);
});

test('docs/cdk-feature-flags.md names every flag, set or kept off', () => {
  const missing = [...Object.keys(flags), ...Object.keys(KEPT_OFF)].filter((name) => !document.includes(`\`${name}\``));
  expect(missing).toEqual([]);
});
