/**
 * Test items of a list (test/integration/pagination.test.ts, sharded-lists.test.ts), inserted as the
 * repositories insert a listed record: the item with its list keys (in its shard, when its client's
 * lists are sharded) and its lists' counters, in one transaction. Import after createTestTable: the
 * modules read the table's name on first use.
 */
export interface Widget {
  readonly id: string;
  readonly created_at: string;
  updated_at: string;
  readonly color: string;
  readonly scope?: string;
}

/** Inserts `widgets` of `tenant` in `collection`, ten at a time. */
export async function insertWidgets(
  tableName: string,
  tenant: string,
  collection: string,
  widgets: readonly Widget[],
): Promise<void> {
  const [keys, counters, inserts, transactions] = await Promise.all([
    import('../../shared/data/item-keys'),
    import('../../shared/data/counters'),
    import('../../shared/data/inserts'),
    import('../../shared/data/transactions'),
  ]);
  const insertOne = (widget: Widget) =>
    transactions.transactWrite({
      TransactItems: [
        {
          Put: {
            TableName: tableName,
            Item: {
              pk: `WIDGET#${widget.id}`,
              sk: 'WIDGET',
              ...keys.collectionKeys(tenant, collection, widget.id, widget.created_at, widget.updated_at, widget.scope),
              entity: 'WIDGET',
              tenant,
              ...widget,
            },
          },
        },
        ...counters.counterIncrements(
          inserts.listPartitions({ tenant, ...widget }, { collection, scope: widget.scope }),
          widget.id,
        ),
      ],
    });
  for (let i = 0; i < widgets.length; i += 10) await Promise.all(widgets.slice(i, i + 10).map(insertOne));
}
