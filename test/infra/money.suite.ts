/**
 * Least privilege inside the table on every stage (docs/security.md, "Money partitions"): the
 * functions that may write an account and its ledger, a payment, a refund, a reversal or a credit
 * answer are exactly those listed here, each for the money it moves; every other function's role is
 * denied those writes, whatever its table actions.
 */
import { MONEY_WRITE_DENIED_ACTIONS } from '../../infra/constructs/service-function';
import { stages, type StageName } from '../../infra/stages';
import { networkRoutes, routesFor } from '../../functions/routes';
import { workers } from '../../functions/workers';
import { MONEY_KEY_PREFIXES } from '../../shared/data/item-keys';
import { logicalIdOf, roleStatements, synth, type Json, type Synth } from './synth';

const stageNames = Object.keys(stages) as StageName[];

/** The functions that write money, and what they write. */
const WRITES_MONEY: Readonly<Record<string, string>> = {
  linkAccount: "a merchant's account, its balance and its opening movement",
  updateCustomer: "its accounts' status copies, as the merchant's status changes",
  applyMerchantDecision: "a merchant's accounts' status copies, as the sponsor bank approves or revokes it",
  createPayment: "the payment, the payer's hold, its movement",
  createRefund: "the refund, the hold on the merchant's balance, the payment's refunded amount",
  paySandboxQrCode: "a sandbox shopper's payment credited to the merchant",
  receiveSandboxInboundPayment: 'a sandbox credit to the merchant',
  receiveNetworkCredit: "the network's credit, its answer, the merchant's balance",
  reverseNetworkCredit: "the reversal, the merchant's debit, the payment's reversed amount",
  applyTransferStatus: "the network's answer to a transfer: settled, or the hold released",
  settlePayment: 'a payment or refund settled or rejected, its balance and movement',
  decideCredit: "an inbound payment decided, the merchant's balance credited",
  sweepStrandedWork: 'the due time of a payment or refund it queues again',
};

const isMoneyDeny = (synthed: Synth, statement: Json): boolean =>
  JSON.stringify(statement) ===
  JSON.stringify({
    Action: [...MONEY_WRITE_DENIED_ACTIONS].sort(),
    Condition: {
      'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': MONEY_KEY_PREFIXES.map((prefix) => `${prefix}*`) },
    },
    Effect: 'Deny',
    Resource: { 'Fn::GetAtt': [logicalIdOf(synthed, synthed.stack.table), 'Arn'] },
  });

test('the entries that declare writesMoney are the listed ones', () => {
  const declared = [...routesFor(true), ...networkRoutes, ...workers].filter((entry) => entry.writesMoney);
  expect(declared.map((entry) => entry.name).sort()).toEqual(Object.keys(WRITES_MONEY).sort());
});

describe.each(stageNames)('money partitions, stage %s (money.suite.ts)', (stage) => {
  test('every function but those that write money is denied writing a money partition', () => {
    const synthed = synth(stage);
    const names = [...synthed.stack.serviceFunctions.keys()];
    const undenied = names.filter(
      (name) => !roleStatements(synthed, name).some((statement) => isMoneyDeny(synthed, statement)),
    );
    expect(names.length).toBeGreaterThan(20);
    expect(undenied.sort()).toEqual(
      Object.keys(WRITES_MONEY)
        .filter((name) => names.includes(name))
        .sort(),
    );
  });
});
