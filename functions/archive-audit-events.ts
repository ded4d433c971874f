/**
 * The audit archiver (docs/audit.md, "The hash chain", "The Object Lock copy"): reads the table's
 * stream, links each new audit event to its client's hash chain and copies it, with its link, to the
 * stage's Object Lock bucket, one object per event (shared/data/audit-archive.ts).
 * On AWS its event source passes on only the insertions of audit events, which it checks again (the
 * local runtime hands it every record). A failure reports the record it stopped at, so the batch is
 * retried from there: a record handed twice keeps its first link and is the same object again.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { AUDIT_EVENT_ENTITY } from '../shared/data/audit-chain';
import { archiveAuditEvents, archiveStore, type ArchiveStore } from '../shared/data/audit-archive';
import { logger } from '../shared/http/logger';
import { workerHandler } from '../shared/observability/worker-handler';
import { timeForOneMore } from '../shared/runtime/batch-items';
import { workerOf } from './workers';

const { recordSeconds } = workerOf('archive-audit-events');

export const handler = workerHandler(
  logger,
  async (event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> => {
    // Named when a copy is first made: a batch with no audit event needs no bucket.
    let store: ArchiveStore | undefined;
    for (const record of event.Records) {
      const retryFrom = { batchItemFailures: [{ itemIdentifier: record.dynamodb!.SequenceNumber! }] };
      if (!timeForOneMore(context, recordSeconds * 1000)) return retryFrom;
      const image = record.dynamodb?.NewImage as Record<string, AttributeValue> | undefined;
      if (record.eventName !== 'INSERT' || image?.['entity']?.S !== AUDIT_EVENT_ENTITY) continue;
      const stored = unmarshall(image);
      try {
        store ??= archiveStore();
        await archiveAuditEvents([stored], store);
      } catch (error) {
        logger.error(
          'Audit event link or copy failed: the batch is retried from this record',
          { event_id: stored['id'], sequence_number: record.dynamodb?.SequenceNumber },
          error as Error,
        );
        return retryFrom;
      }
    }
    return { batchItemFailures: [] };
  },
);
