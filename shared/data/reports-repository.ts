/**
 * Report runs in DynamoDB (docs/data-model.md, REPORT): listed in the tenant's `REPORT` collection,
 * and in the index of due work from their creation until a run finishes them (shared/data/due-work.ts):
 * a run takes the report with a lease (`lease_owner`, `lease_expires_at`) and moves its due time past
 * it in the same conditional write, so the sweeper queues it again only when a run was lost (and,
 * shared/data/due-work.ts, never while its lease is live). Finishing, only by the lease's owner,
 * removes it from the index and the lease, in the transaction of its event.
 * The client's count of PENDING reports goes up with a create (which a full count refuses) and down
 * with the finish, in their own transactions: exact however many creates race. A create writes its
 * audit event in its transaction; a download URL handed out writes one of its own (a read: there is
 * no change to go with).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ReportStore, StoredReport } from '../domain/reports';
import { auditItems, type AuditedChange } from './audit-trail';
import { dynamo, tableName } from './client';
import { DUE_ATTRIBUTES, dueKeys } from './due-work';
import { eventsPut } from './events';
import { listedRecordInsert } from './inserts';
import { itemKeys, REPORT_ENTITY, updatedAtKeys, withoutStorageAttributes } from './item-keys';
import { listedStore, recordGetter, listingOf, type ListedKind } from './listed-records';
import { transactWrite, writeUnless, type TransactItem } from './transactions';

const REPORTS: ListedKind<StoredReport, Record<string, never>> = {
  name: REPORT_ENTITY,
  key: itemKeys.report,
  // A client's reports are listed whole: they belong to no customer.
  scopeOf: () => undefined,
  where: () => ({}),
  // A run reads the report its create has just written.
  consistentGet: true,
};

/** The attributes of a run's lease: removed when it is given back and when the report is finished. */
const LEASE_ATTRIBUTES = ['lease_owner', 'lease_expires_at'] as const;

/**
 * The condition that the report is still held by the lease `report` carries: its owner's, or none
 * when the report carries none (a finish outside a run: tests, an operator).
 */
const heldBy = (report: StoredReport) =>
  report.lease_owner === undefined
    ? { condition: 'attribute_not_exists(lease_owner)', values: {} }
    : { condition: 'lease_owner = :owner', values: { ':owner': report.lease_owner } };

/**
 * The attributes of a finished report, set while it is still PENDING and held by the run's lease;
 * it leaves the due work, and the lease goes.
 */
function finishUpdate(report: StoredReport): TransactItem {
  const finished = {
    status: report.status,
    updated_at: report.updated_at,
    ...updatedAtKeys(report.id, report.updated_at, false),
    ...(report.status === 'SUCCEEDED'
      ? { row_count: report.row_count, file: report.file, completed_at: report.completed_at }
      : { failure_reason: report.failure_reason }),
  };
  const names = Object.keys(finished);
  const held = heldBy(report);
  return {
    Update: {
      TableName: tableName(),
      Key: itemKeys.report(report.id),
      UpdateExpression: `SET ${names.map((name) => `#${name} = :${name}`).join(', ')} REMOVE ${[...DUE_ATTRIBUTES, ...LEASE_ATTRIBUTES].join(', ')}`,
      ConditionExpression: `#status = :pending AND ${held.condition}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((name) => [`#${name}`, name])),
      ExpressionAttributeValues: {
        ...Object.fromEntries(Object.entries(finished).map(([name, value]) => [`:${name}`, value])),
        ':pending': 'PENDING',
        ...held.values,
      },
    },
  };
}

/**
 * The change of the client's count of PENDING reports: one more, only while fewer than `limit`; or one
 * less. (A report created before the count existed takes one off it when it finishes: the count may
 * then stand below the truth by that many, for good, which only ever lets that client one more.)
 */
function pendingCountChange(
  tenant: string,
  change: { readonly add: 1; readonly limit: number } | { readonly add: -1 },
) {
  return {
    Update: {
      TableName: tableName(),
      Key: itemKeys.pendingReports(tenant),
      UpdateExpression: 'SET entity = :entity ADD pending :add',
      ExpressionAttributeValues: {
        ':entity': 'PENDING_REPORTS',
        ':add': change.add,
        ...('limit' in change ? { ':limit': change.limit } : {}),
      },
      ...('limit' in change ? { ConditionExpression: 'attribute_not_exists(pending) OR pending < :limit' } : {}),
    },
  };
}

/** Writes the finish of a report (with `also`); false when another run finished it first or took its lease. */
async function finishReport(report: StoredReport, also: readonly TransactItem[]): Promise<boolean> {
  const refused = await writeUnless(
    [{ item: finishUpdate(report), refused: () => 'finished' as const }],
    [pendingCountChange(report.tenant, { add: -1 }), ...also],
  );
  return refused === undefined;
}

/** What an audit event says of the report it is about. */
const audited = (report: StoredReport): Pick<AuditedChange, 'resourceType' | 'resourceId'> => ({
  resourceType: 'REPORT',
  resourceId: report.id,
});

/** A report's get and writes, without the list reads (listed-records.ts: listedStore). */
export const dynamoReportWrites: Omit<ReportStore, 'list' | 'walk'> = {
  ...recordGetter(REPORTS),

  async insert(report, limit) {
    const [put, ...counters] = listedRecordInsert(
      report,
      REPORTS.key(report.id),
      REPORTS.name,
      listingOf(REPORTS, report),
    );
    // Due from its creation: a queue message lost after this commit is sent again by the sweeper.
    const due = { Put: { ...put!.Put!, Item: { ...put!.Put!.Item, ...dueKeys(report.id, report.created_at) } } };
    const refused = await writeUnless(
      [{ item: pendingCountChange(report.tenant, { add: 1, limit }), refused: () => 'busy' as const }],
      [
        due,
        ...counters,
        ...auditItems({ action: 'report.created', ...audited(report), after: report, at: report.created_at }),
      ],
    );
    return refused ?? 'inserted';
  },

  async startRun(id, lease, now) {
    try {
      const { Attributes } = await dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: itemKeys.report(id),
          // The due time moves with the lease: the sweeper finds the report only once the lease has ended.
          UpdateExpression:
            'SET runs = if_not_exists(runs, :zero) + :one, duesk = :until, lease_owner = :owner, lease_expires_at = :until',
          ConditionExpression:
            '#status = :pending AND (attribute_not_exists(lease_expires_at) OR lease_expires_at <= :now)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':zero': 0,
            ':one': 1,
            ':until': lease.expiresAt,
            ':owner': lease.owner,
            ':now': now,
            ':pending': 'PENDING',
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes && withoutStorageAttributes<StoredReport>(Attributes);
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  },

  succeed: (report, event) => finishReport(report, eventsPut([event])),

  fail: (report) => finishReport(report, []),

  async release(id, owner) {
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: itemKeys.report(id),
          // The due time stays: were the queue's retry lost too, the sweeper queues the report then.
          UpdateExpression: `REMOVE ${LEASE_ATTRIBUTES.join(', ')}`,
          ConditionExpression: 'lease_owner = :owner',
          ExpressionAttributeValues: { ':owner': owner },
        }),
      );
    } catch (error) {
      // Another run took it meanwhile (this one's lease had ended): its lease is not this run's to give.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  },

  async downloaded(report, at) {
    // The event and its list counters, together; nothing outside a request (no actor).
    const items = auditItems({ action: 'report.downloaded', ...audited(report), after: report, at });
    if (items.length > 0) await transactWrite({ TransactItems: items });
  },
};

export const dynamoReportStore: ReportStore = /* @__PURE__ */ listedStore(REPORTS, dynamoReportWrites);
