/** Customers in DynamoDB: the item, and a NIT guard per client written in the same transaction. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { CustomerStore, InsertCustomerResult, StoredCustomer } from '../domain/customers';
import { dynamo, tableName } from './client';
import { collectionKeys, keys, withoutStorageAttributes } from './keys';
import { failedConditions, transactWrite } from './transactions';

export const CUSTOMERS_COLLECTION = 'CUSTOMER';

export const dynamoCustomerStore: CustomerStore = {
  async insert(customer: StoredCustomer): Promise<InsertCustomerResult> {
    const TableName = tableName();
    const notYetThere = 'attribute_not_exists(pk)';
    try {
      await transactWrite({
        TransactItems: [
          {
            Put: {
              TableName,
              Item: {
                ...keys.nitGuard(customer.tenant, customer.identification_number),
                entity: 'NIT_GUARD',
                customer_id: customer.id,
              },
              ConditionExpression: notYetThere,
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
          {
            Put: {
              TableName,
              Item: {
                ...keys.customer(customer.id),
                ...collectionKeys(
                  customer.tenant,
                  CUSTOMERS_COLLECTION,
                  customer.id,
                  customer.created_at,
                  customer.updated_at,
                ),
                entity: 'CUSTOMER',
                ...customer,
              },
              ConditionExpression: notYetThere,
            },
          },
        ],
      });
      return { inserted: true };
    } catch (error) {
      const failed = failedConditions(error);
      if (!failed?.has(0)) throw error;
      const existingId = failed.get(0)?.['customer_id'] ?? (await readGuard(customer));
      return { inserted: false, existingId: String(existingId) };
    }
  },

  async get(id: string): Promise<StoredCustomer | undefined> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: keys.customer(id) }));
    return Item ? withoutStorageAttributes<StoredCustomer>(Item) : undefined;
  },
};

async function readGuard(customer: StoredCustomer): Promise<unknown> {
  const { Item } = await dynamo().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.nitGuard(customer.tenant, customer.identification_number),
      ConsistentRead: true,
    }),
  );
  return Item?.['customer_id'];
}
