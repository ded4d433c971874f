/**
 * `npm run ops:transfer-status -- <payment or refund id> SETTLED|REJECTED --evidence "<text>"`: an
 * operator applies the bank's confirmed answer to a transfer in review (docs/network.md, "Review"),
 * once, as the network's callback would have been, audited in the client's trail (action
 * `payment.answered` or `refund.answered`, the operator as actor, the evidence kept on the event).
 * Runs with the operator's AWS credentials against the stage's table: TABLE_NAME (the stack's output
 * TableName) and the AWS region of the environment; DYNAMODB_ENDPOINT reaches a local one. OPERATOR
 * names the operator (default: the system user).
 */
import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import { systemNewRecords } from '../shared/domain/clock';
import { applyOperatorAnswer, type OperatorAnswered } from '../shared/domain/operator-answers';
import { actingAs } from '../shared/data/audit-trail';
import { dynamoSettlementStore } from '../shared/data/payments-repository';
import { dynamoRefundStore } from '../shared/data/refunds-repository';

/** Runs the command's work: the answer applied as `operator`, on `evidence`, in the transfer's own client's trail. */
export async function applyAsOperator(
  request: { readonly id: string; readonly status: 'SETTLED' | 'REJECTED'; readonly evidence: string },
  operator: string,
): Promise<OperatorAnswered> {
  const deps = { ...systemNewRecords, payments: dynamoSettlementStore, refunds: dynamoRefundStore };
  // The transfer's client is known once it is read: read first, then act as the operator in that trail.
  const tenant =
    (await dynamoSettlementStore.get(request.id))?.tenant ?? (await dynamoRefundStore.get(request.id))?.tenant;
  if (!tenant) throw new Error(`No payment or refund has the id ${request.id}`);
  return actingAs(
    { tenant, subject: `operator:${operator}`, requestId: `ops-${randomUUID()}`, evidence: request.evidence },
    () => applyOperatorAnswer(deps, request.id, request.status),
  );
}

const USAGE = 'usage: npm run ops:transfer-status -- <payment or refund id> SETTLED|REJECTED --evidence "<text>"';

/** The command line, read: the transfer, the answer and the evidence (required, at most 500 characters). */
export function parseArguments(argv: readonly string[]) {
  const [id, status, flag, evidence] = argv;
  if (!id || (status !== 'SETTLED' && status !== 'REJECTED') || flag !== '--evidence' || !evidence?.trim()) {
    throw new Error(USAGE);
  }
  if (evidence.length > 500) throw new Error('The evidence is at most 500 characters');
  return { id: id.toLowerCase(), status, evidence: evidence.trim() } as const;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const request = parseArguments(process.argv.slice(2));
    const answered = await applyAsOperator(request, process.env['OPERATOR'] ?? userInfo().username);
    console.log(
      answered.applied
        ? `${answered.kind} ${request.id} is ${answered.transfer.status}: applied and audited`
        : `${answered.kind} ${request.id} was answered already (${answered.transfer.status}): nothing changed`,
    );
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
