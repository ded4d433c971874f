/**
 * Report runs in DynamoDB (docs/data-model.md, REPORT): listed in the tenant's `REPORT` collection,
 * and in the index of due work from their creation until a run finishes them (shared/data/due-work.ts):
 * a run takes the report for its time by moving its due time past it, so the sweeper queues it again
 * only when a run was lost. Finishing removes it from the index, in the transaction of its event.
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
import { listedReads, listingOf, type ListedKind } from './listed-records';
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

/** The attributes of a finished report, set while it is still PENDING, and it leaves the due work. */
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
  return {
    Update: {
      TableName: tableName(),
      Key: itemKeys.report(report.id),
      UpdateExpression: `SET ${names.map((name) => `#${name} = :${name}`).join(', ')} REMOVE ${DUE_ATTRIBUTES.join(', ')}`,
      ConditionExpression: '#status = :pending',
      ExpressionAttributeNames: Object.fromEntries(names.map((name) => [`#${name}`, name])),
      ExpressionAttributeValues: {
        ...Object.fromEntries(Object.entries(finished).map(([name, value]) => [`:${name}`, value])),
        ':pending': 'PENDING',
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

/** Writes the finish of a report (with `also`); false when another run finished it first. */
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

export const dynamoReportStore: ReportStore = {
  ...listedReads(REPORTS),

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

  async startRun(id, until) {
    try {
      const { Attributes } = await dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: itemKeys.report(id),
          UpdateExpression: 'SET runs = if_not_exists(runs, :zero) + :one, duesk = :until',
          ConditionExpression: '#status = :pending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':until': until, ':pending': 'PENDING' },
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

  async downloaded(report, at) {
    // The event and its list counters, together; nothing outside a request (no actor).
    const items = auditItems({ action: 'report.downloaded', ...audited(report), after: report, at });
    if (items.length > 0) await transactWrite({ TransactItems: items });
  },
};
