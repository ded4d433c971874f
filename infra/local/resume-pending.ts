/**
 * The local queues live in the process: stopping `npm start` drops the messages not yet due (a
 * settlement job waiting for the sandbox's answer, a delivery waiting for its retry), where SQS would
 * keep them. So on start the runtime finds the work left pending in the kept table (`.data/`) and
 * queues it again: each PENDING payment's settlement, each PENDING delivery's next attempt (the
 * sender waits out whatever remains of its backoff), and each inbound payment left PROCESSING by a
 * request that died with the process (decided at once, as its decision job would have). The handlers
 * ignore a message whose work is done, so queueing one twice is harmless. One Scan: local data is small, and this runs only at start.
 */
import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { MessageQueue } from '../../shared/data/queues';

export interface PendingWork {
  readonly payments: number;
  readonly deliveries: number;
}

export async function resumePendingWork(
  documents: DynamoDBDocumentClient,
  tableName: string,
  queues: { readonly settlement: MessageQueue; readonly webhookDeliveries: MessageQueue },
  settlementDelayMs: number,
): Promise<PendingWork> {
  let payments = 0;
  let deliveries = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression:
          '(entity = :payment AND #status IN (:pending, :processing)) OR (entity = :delivery AND #status = :pending)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':payment': 'PAYMENT',
          ':delivery': 'DELIVERY',
          ':pending': 'PENDING',
          ':processing': 'PROCESSING',
        },
        ProjectionExpression: 'entity, id, #status',
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const item of page.Items ?? []) {
      if (item['entity'] === 'PAYMENT') {
        // A PROCESSING payment's request died with the last run: its decision job runs now.
        const delayMs = item['status'] === 'PROCESSING' ? 0 : settlementDelayMs;
        await queues.settlement.send({ payment_id: item['id'] }, delayMs);
        payments += 1;
      } else {
        await queues.webhookDeliveries.send({ delivery_id: item['id'] }, 0);
        deliveries += 1;
      }
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return { payments, deliveries };
}
