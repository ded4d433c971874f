/**
 * The audit events' immutability on every stage (docs/audit.md, "Nobody changes an event"): every
 * Lambda function of the stage's template, its route families' included, runs under a role denied
 * updating or deleting an item under the events' partition-key prefix; and every function whose role
 * may write the table is one of the service's functions, which all get that Deny.
 */
import { stages, type StageName } from '../../infra/stages';
import { AUDIT_EVENT_DENIED_ACTIONS } from '../../infra/constructs/service-function';
import { AUDIT_EVENT_KEY_PREFIX } from '../../shared/data/item-keys';
import { asArray, logicalIdOf, resourcesOf, synth, type Json, type Synth } from './synth';

const stageNames = Object.keys(stages) as StageName[];

/** The statements of the role a function's resource names. */
const statementsOfRole = (resources: Record<string, Json>, roleId: string): Json[] =>
  Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy')
    .filter((r) => asArray(r.Properties.Roles).some((role: Json) => role.Ref === roleId))
    .flatMap((r) => asArray(r.Properties.PolicyDocument.Statement));

const tableArnOf = (synthed: Synth): Json => ({
  'Fn::GetAtt': [logicalIdOf(synthed, synthed.stack.table), 'Arn'],
});

const isAuditDeny = (synthed: Synth, statement: Json): boolean =>
  JSON.stringify(statement) ===
  JSON.stringify({
    Action: [...AUDIT_EVENT_DENIED_ACTIONS].sort(),
    Condition: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [`${AUDIT_EVENT_KEY_PREFIX}*`] } },
    Effect: 'Deny',
    Resource: tableArnOf(synthed),
  });

const writesTable = (statement: Json): boolean =>
  statement.Effect === 'Allow' &&
  asArray<string>(statement.Action).some((action) => /^dynamodb:(Put|Update|Delete|BatchWrite)/.test(action));

describe.each(stageNames)('audit events, stage %s (audit.suite.ts)', (stage) => {
  test('every function is denied updating or deleting an audit event', () => {
    const synthed = synth(stage);
    const resources = resourcesOf(synthed);
    const functions = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function');
    const ours = new Set([...synthed.stack.serviceFunctions.values()].map((fn) => logicalIdOf(synthed, fn.function)));
    const lacking: string[] = [];
    for (const [id, fn] of functions) {
      const roleId = fn.Properties.Role?.['Fn::GetAtt']?.[0];
      const statements = roleId ? statementsOfRole(resources, roleId) : [];
      const denied = statements.some((statement) => isAuditDeny(synthed, statement));
      // One of ours without it, or any other function that may write the table.
      if ((ours.has(id) || statements.some(writesTable)) && !denied) lacking.push(id);
    }
    expect(ours.size).toBeGreaterThan(20);
    expect([...ours].filter((id) => !functions.some(([fid]) => fid === id))).toEqual([]);
    expect(lacking).toEqual([]);
  });
});
