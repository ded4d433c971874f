/**
 * Customers in DynamoDB: the item (listed in the tenant's collection, and in a scope per NIT so the
 * identification_number filter reads one partition), a NIT guard per client, and the list counters,
 * all written in one transaction.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CustomerListFilters, CustomerStore, InsertCustomerResult, StoredCustomer } from '../domain/customers';
import type { PageRequest, PageResult } from '../domain/lists';
import type { CustomerStatus } from '../schemas/customers';
import { dynamo, tableName } from './client';
import { guardPut, listedRecordInsert } from './inserts';
import { itemKeys, updatedAtKeys, withoutStorageAttributes } from './item-keys';
import { getRecord } from './records';
import { listRecords } from './pagination';
import { failedConditions, transactWrite } from './transactions';

export const CUSTOMERS_COLLECTION = 'CUSTOMER';

/** The scope of a customer in its collection: one partition per NIT. */
export const nitScope = (nit: string): string => `NIT#${nit}`;

export const dynamoCustomerStore: CustomerStore = {
  async insert(customer: StoredCustomer): Promise<InsertCustomerResult> {
    const listing = { collection: CUSTOMERS_COLLECTION, scope: nitScope(customer.identification_number) };
    try {
      await transactWrite({
        TransactItems: [
          guardPut(itemKeys.nitGuard(customer.tenant, customer.identification_number), 'NIT_GUARD', {
            customer_id: customer.id,
          }),
          ...listedRecordInsert(customer, itemKeys.customer(customer.id), 'CUSTOMER', listing),
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
    return getRecord<StoredCustomer>(itemKeys.customer(id));
  },

  async updateStatus(seen: StoredCustomer, status: CustomerStatus, now: string): Promise<StoredCustomer | undefined> {
    // updated_at moves the customer in the updated_at orderings (gsi2, and gsi4 of its NIT scope).
    const moved = updatedAtKeys(seen.id, now, true);
    try {
      const { Attributes } = await dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: itemKeys.customer(seen.id),
          UpdateExpression:
            'SET #status = :status, updated_at = :now, gsi2sk = :gsi2sk, gsi4sk = :gsi4sk ADD status_version :one',
          ConditionExpression: 'attribute_exists(pk) AND #status = :seen',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':status': status,
            ':now': now,
            ':gsi2sk': moved.gsi2sk,
            ':gsi4sk': moved.gsi4sk,
            ':one': 1,
            ':seen': seen.status,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? withoutStorageAttributes<StoredCustomer>(Attributes) : undefined;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  },

  list: (tenant: string, filters: CustomerListFilters, request: PageRequest): Promise<PageResult<StoredCustomer>> =>
    listRecords<StoredCustomer>({
      tenant,
      collection: CUSTOMERS_COLLECTION,
      scope: filters.identificationNumber && nitScope(filters.identificationNumber),
      equals: { status: filters.status, mobile_phone_number: filters.mobile },
      request,
    }),
};

async function readGuard(customer: StoredCustomer): Promise<unknown> {
  const { Item } = await dynamo().send(
    new GetCommand({
      TableName: tableName(),
      Key: itemKeys.nitGuard(customer.tenant, customer.identification_number),
      ConsistentRead: true,
    }),
  );
  return Item?.['customer_id'];
}
