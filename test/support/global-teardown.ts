import { rmSync } from 'node:fs';
import { publishContractReport } from './contract-report';

export default async function globalTeardown(): Promise<void> {
  const pool = globalThis.dynamoDbPoolForTests;
  if (pool) {
    await pool.stop();
    console.log(`\nDynamoDB Locals started for the run: ${pool.started}`);
  }
  const dir = process.env['CONTRACT_REPORT_DIR'];
  if (!dir) return;
  const line = publishContractReport(dir);
  if (line) console.log(`\n${line}`);
  rmSync(dir, { recursive: true, force: true });
}
