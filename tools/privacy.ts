/**
 * A data subject's request (docs/privacy.md), answered by an operator:
 *
 *   npm run privacy:export -- <identification_type> <identification_number> [--out <file>]
 *   npm run privacy:erase -- <identification_type> <identification_number> [--out <file>]
 *
 * export writes every record that names the person as JSON; erase removes or masks what no law makes
 * us keep and writes what it erased, masked and kept, with why. Both are audited: one event in the
 * platform's trail, and one in the trail of each client whose records name the person (action
 * `personal_data.exported` or `personal_data.erased`, the operator as actor, `ops-<uuid>` its request).
 * Runs with the operator's AWS credentials against the stage's table, as ops:transfer-status does:
 * TABLE_NAME (the stack's output TableName) and the AWS region of the environment; DYNAMODB_ENDPOINT
 * reaches a local one. OPERATOR names the operator (default: the system user). Reads the whole table
 * (a Scan): docs/privacy.md says its cost.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import {
  erasePersonalData,
  exportPersonalData,
  type DataSubject,
  type Erasure,
  type PersonalDataExport,
} from '../shared/domain/personal-data';
import { dynamoPersonalDataStore } from '../shared/data/personal-data-store';

export type PrivacyCommand = 'export' | 'erase';

const USAGE =
  'usage: npm run privacy:export -- <identification_type> <identification_number> [--out <file>]\n' +
  '       npm run privacy:erase -- <identification_type> <identification_number> [--out <file>]';

/** The command line after the command: the person's identification, and where to write (stdout by default). */
export function parseArguments(argv: readonly string[]): { subject: DataSubject; out?: string } {
  const [type = '', number = '', flag, out, ...rest] = argv;
  const identified = /^[A-Z]{1,20}$/.test(type) && /^[A-Za-z0-9]{1,20}$/.test(number);
  if (!identified || rest.length > 0 || (flag !== undefined && (flag !== '--out' || !out))) throw new Error(USAGE);
  return { subject: { identification_type: type, identification_number: number }, ...(out ? { out } : {}) };
}

/** Runs `command` for `subject` as `operator` (each run its own request id, in every audit event). */
export async function runPrivacyCommand(
  command: PrivacyCommand,
  subject: DataSubject,
  operator: string,
): Promise<PersonalDataExport | Erasure> {
  const author = { operator, requestId: `ops-${randomUUID()}` };
  const now = new Date().toISOString();
  return command === 'export'
    ? exportPersonalData(dynamoPersonalDataStore, author, subject, now)
    : erasePersonalData(dynamoPersonalDataStore, author, subject, now);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const [command, ...argv] = process.argv.slice(2);
    if (command !== 'export' && command !== 'erase') throw new Error(USAGE);
    const { subject, out } = parseArguments(argv);
    const answer = await runPrivacyCommand(command, subject, process.env['OPERATOR'] ?? userInfo().username);
    const json = `${JSON.stringify(answer, null, 2)}\n`;
    if (out) {
      // Only the operator may read it: it is the person's data.
      await writeFile(out, json, { mode: 0o600 });
      console.error(`written to ${out}`);
    } else process.stdout.write(json);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
