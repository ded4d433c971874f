/**
 * `npm run audit:verify -- <client_id>`: walks the client's audit chain in order (docs/audit.md, "The
 * hash chain") and says OK with the number of events, or names the first event where the chain breaks
 * (an event changed, missing or moved) and exits 1. Runs with the operator's AWS credentials against
 * the stage's table: TABLE_NAME (the stack's output TableName) and the AWS region of the environment;
 * DYNAMODB_ENDPOINT reaches a local one.
 */
import { verifyAuditChain, type ChainVerdict } from '../shared/data/audit-verify';

/** What the command prints of a verdict. */
export function describeVerdict(tenant: string, verdict: ChainVerdict): string {
  if (verdict.ok) {
    const waiting = verdict.unlinked ? ` (and ${verdict.unlinked} written moments ago, not linked yet)` : '';
    return `OK: ${tenant}'s audit chain holds, ${verdict.count} events${waiting}`;
  }
  const where = verdict.eventId ? `at event ${verdict.eventId}` : 'at its end';
  return `BROKEN: ${tenant}'s audit chain breaks ${where}, after ${verdict.count} good events: ${verdict.reason}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [tenant] = process.argv.slice(2);
  if (!tenant) {
    console.error('usage: npm run audit:verify -- <client_id>');
    process.exit(2);
  }
  try {
    const verdict = await verifyAuditChain(tenant);
    console.log(describeVerdict(tenant, verdict));
    process.exit(verdict.ok ? 0 : 1);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
}
