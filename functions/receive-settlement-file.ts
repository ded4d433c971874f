/**
 * PUT /network/v1/settlement-files/{date} (docs/network.md, "Settlement files"): the sponsor bank's
 * settled movements of a Bogotá day on our clients' accounts, as JSON lines, signed by the connector.
 * Kept, recorded as the day's file (a day sent again replaces it) and answered 202; its
 * reconciliation runs after (functions/reconcile-settlement.ts).
 */
import { systemNewRecords } from '../shared/domain/clock';
import {
  MAX_SETTLEMENT_FILE_BYTES,
  receiveSettlementFile,
  type ReconciliationQueue,
} from '../shared/domain/settlement-files';
import { reconciliationQueue } from '../shared/data/queues';
import { receiveSettlementFileRecord } from '../shared/data/reconciliations-repository';
import { settlementFiles } from '../shared/data/settlement-files';
import { logger } from '../shared/http/logger';
import { networkHandler } from '../shared/http/network-handler';
import type { SettlementFileRequest } from '../shared/schemas/network';
import { settlementFileRequest } from '../shared/schemas/generated/network';
import { sentAfterCommit } from './after-commit';
import { verifyNetworkRequest } from './network-ports';

/** The run's message, sent after the record's commit (the file recorded and due: functions/after-commit.ts). */
const queue: ReconciliationQueue = {
  run: (date) => sentAfterCommit(() => reconciliationQueue().run(date), 'reconciliations', { date }),
};

export const handler = networkHandler<SettlementFileRequest, { date: string }>({
  name: 'receiveSettlementFile',
  body: settlementFileRequest,
  format: 'ndjson',
  maxBodyBytes: MAX_SETTLEMENT_FILE_BYTES,
  status: 202,
  verify: verifyNetworkRequest,
  handle: async ({ body, path }) => {
    const answer = await receiveSettlementFile(
      { ...systemNewRecords, files: settlementFiles, store: { receive: receiveSettlementFileRecord }, queue },
      path.date,
      body,
    );
    logger.info('Settlement file received', { date: answer.date, lines: answer.line_count });
    return answer;
  },
});
