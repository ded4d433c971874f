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
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { AUDIT_EVENT_ENTITY, linkAuditEvents, type ChainLink } from '../shared/data/audit-chain';
import { archiveStore, copyAuditEvent, type ArchiveStore } from '../shared/data/audit-archive';
import { logger } from '../shared/http/logger';
import { workerHandler } from '../shared/observability/worker-handler';
import { timeForOneMore } from '../shared/runtime/batch-items';
import { workerOf } from './workers';

const { recordSeconds } = workerOf('archive-audit-events');

/** The record's audit event, when it is an event's insertion (the local runtime hands every record). */
function insertedEvent(record: DynamoDBRecord): Record<string, unknown> | undefined {
  const image = record.dynamodb?.NewImage as Record<string, AttributeValue> | undefined;
  return record.eventName === 'INSERT' && image?.['entity']?.S === AUDIT_EVENT_ENTITY ? unmarshall(image) : undefined;
}

export const handler = workerHandler(
  logger,
  async (event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> => {
    const records = event.Records.map((record) => ({ record, stored: insertedEvent(record) }));
    const events = records.flatMap(({ stored }) => (stored ? [stored] : []));
    if (events.length === 0) return { batchItemFailures: [] };
    const retryFrom = (record: DynamoDBRecord) => ({
      batchItemFailures: [{ itemIdentifier: record.dynamodb!.SequenceNumber! }],
    });
    // The batch's events linked first, each client's in one transaction; a failure retries the batch.
    let links: Map<string, ChainLink>;
    try {
      links = await linkAuditEvents(events);
    } catch (error) {
      logger.error('Audit events not linked: the batch is retried', { events: events.length, error });
      return retryFrom(event.Records[0]!);
    }
    // Named when a copy is first made: a batch with no audit event needs no bucket.
    let store: ArchiveStore | undefined;
    for (const { record, stored } of records) {
      if (!timeForOneMore(context, recordSeconds * 1000)) return retryFrom(record);
      if (!stored) continue;
      try {
        store ??= archiveStore();
        await copyAuditEvent(stored, links.get(String(stored['id']))!, store);
      } catch (error) {
        logger.error('Audit event copy failed: the batch is retried from this record', {
          event_id: stored['id'],
          sequence_number: record.dynamodb?.SequenceNumber,
          error,
        });
        return retryFrom(record);
      }
    }
    return { batchItemFailures: [] };
  },
);
