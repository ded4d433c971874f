/**
 * What the contract checks of a run covered (test/support/contract.ts records each check in a file
 * of CONTRACT_REPORT_DIR, one per worker): the operations, the (operation, status) answers and the
 * schemas checked, and what the document describes that no test received. The global teardown prints
 * it and writes it to coverage/contract.json.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import document from '../../shared/schemas/generated/openapi.json' with { type: 'json' };
import { REPO_ROOT } from '../../infra/paths';

interface Checked {
  readonly operation: string;
  readonly status: number;
  readonly schema: string;
}

export interface ContractReport {
  readonly responsesChecked: number;
  readonly operations: { readonly checked: number; readonly documented: number };
  readonly answers: { readonly checked: number; readonly documented: number };
  readonly schemas: readonly string[];
  readonly answersWithoutOperation: number;
  /** `operationId status` pairs the document describes and no test received. */
  readonly neverReceived: readonly string[];
}

export function contractReport(dir: string): ContractReport {
  const checks: Checked[] = readdirSync(dir)
    .filter((file) => file.endsWith('.jsonl'))
    .flatMap((file) => readFileSync(path.join(dir, file), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as Checked);
  const described = Object.values(
    document.paths as Record<string, Record<string, { operationId: string; responses: object }>>,
  )
    .flatMap((item) => Object.values(item))
    .map(({ operationId, responses }) => ({ operationId, statuses: Object.keys(responses) }));
  const documentedAnswers = described.flatMap(({ operationId, statuses }) =>
    statuses.map((s) => `${operationId} ${s}`),
  );
  const withOperation = checks.filter((check) => check.operation !== '(no operation)');
  const received = new Set(withOperation.map((check) => `${check.operation} ${check.status}`));
  return {
    responsesChecked: checks.length,
    operations: {
      checked: new Set(withOperation.map((check) => check.operation)).size,
      documented: described.length,
    },
    answers: { checked: received.size, documented: documentedAnswers.length },
    schemas: [...new Set(checks.map((check) => check.schema))].sort(),
    answersWithoutOperation: checks.length - withOperation.length,
    neverReceived: documentedAnswers.filter((answer) => !received.has(answer)),
  };
}

/** Writes the report to coverage/contract.json and answers the line the run prints. */
export function publishContractReport(dir: string): string | undefined {
  const report = contractReport(dir);
  if (report.responsesChecked === 0) return undefined;
  mkdirSync(path.join(REPO_ROOT, 'coverage'), { recursive: true });
  writeFileSync(path.join(REPO_ROOT, 'coverage', 'contract.json'), `${JSON.stringify(report, null, 2)}\n`);
  return (
    `Contract checks: ${report.responsesChecked} responses against the OpenAPI document; ` +
    `${report.operations.checked} of ${report.operations.documented} operations, ` +
    `${report.answers.checked} of ${report.answers.documented} (operation, status) answers, ` +
    `${report.schemas.length} schemas (${report.schemas.join(', ')}); ` +
    `${report.answersWithoutOperation} answers to requests for no operation (coverage/contract.json)`
  );
}
