import { rmSync } from 'node:fs';
import { publishContractReport } from './contract-report';

export default async function globalTeardown(): Promise<void> {
  await globalThis.dynamoDbPoolForTests?.stop();
  const dir = process.env['CONTRACT_REPORT_DIR'];
  if (!dir) return;
  const line = publishContractReport(dir);
  if (line) console.log(`\n${line}`);
  rmSync(dir, { recursive: true, force: true });
}
