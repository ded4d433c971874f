/**
 * `npm run secrets:reseal`: seals in place every signing secret (a webhook's, an inbound approval
 * settings') still stored in clear from before sealing existed, which no function takes any more
 * (docs/operations.md, "The secret key"). The same secrets, sealed for their record: signatures made
 * with them still verify. Each write holds only while the record still holds what was read, so a
 * rotation meanwhile is kept; run it again until it finds nothing. Prints what it found and did.
 *
 * Runs with the operator's AWS credentials against the stage's table: TABLE_NAME (the stack's output
 * TableName), SECRET_KEY_ARN (the stage's key, `alias/breb-merchant-api/<stage>/secrets`: it needs
 * kms:GenerateDataKey on it) and the AWS region of the environment. DYNAMODB_ENDPOINT reaches a local
 * table, and LOCAL_SECRET_KEY (the local runtime's `<DATA_DIR>/secret-key`) stands for the key there.
 *
 * Nothing is audited: an audit event records a resource's non-secret fields, and none changes (nor
 * does the secret); the counts printed, and the key's CloudTrail events, are the record of a run.
 */
import { secretSealer } from '../shared/data/secret-sealing';
import { dynamoClearSecretsStore } from '../shared/data/clear-secrets-repository';
import { resealClearSecrets, type ResealCounts } from '../shared/domain/secret-reseal';

/** The reseal with the stage's table and key, each record's outcome told to `tell`. */
export function resealSecrets(tell: (line: string) => void = () => {}): Promise<ResealCounts> {
  return resealClearSecrets({ store: dynamoClearSecretsStore, sealer: secretSealer() }, (found, outcome) =>
    tell(
      `${found.kind} ${found.id}${found.kind === 'WEBHOOK' ? ` (client ${found.tenant})` : ''}: ${
        outcome === 'sealed' ? 'sealed' : 'changed meanwhile, left as it is'
      }`,
    ),
  );
}

/** The run's summary line. */
export const summary = ({ found, sealed, changed }: ResealCounts): string =>
  found === 0
    ? 'No signing secret is stored in clear: nothing to do'
    : `${found} record(s) held secrets in clear: ${sealed} sealed, ${changed} changed meanwhile` +
      (changed > 0 ? ' (run the command again: it checks them)' : '');

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(summary(await resealSecrets((line) => console.log(line))));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
