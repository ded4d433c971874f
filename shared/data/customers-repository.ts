/**
 * Customers in DynamoDB: the item (listed in the tenant's collection, and in a scope per NIT so the
 * identification_number filter reads one partition), a NIT guard per client, the NIT's claim across
 * all clients when its approval binds it to one platform, and the list counters, all written in one
 * transaction, with its audit event; a status change writes its own in its transaction too.
 */
import type { CustomerListFilters, CustomerStore, InsertCustomerResult, StoredCustomer } from '../domain/customers';
import { auditItems } from './audit-trail';
import { uniqueGuard } from './inserts';
import { itemKeys } from './item-keys';
import { getRecord } from './records';
import { insertListed, listedStore, recordGetter, type ListedKind } from './listed-records';
import { statusUpdate } from './status-changes';
import { eventsPut } from './events';
import { tableName } from './client';
import { writeUnless, type TransactItem } from './transactions';

/**
 * A transaction item that holds only while the sponsor bank approves the merchant of `nit` for one of
 * `platforms` (or names none) and has not revoked it: approvedFor (shared/domain/sponsor-bank.ts) as
 * a condition, checked in the write it guards, so that a revocation cannot land between a read of
 * the approval and the write.
 */
const approvalCheck = (nit: string, platforms: readonly string[]): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: itemKeys.sponsorMerchant(nit),
    ConditionExpression:
      'attribute_exists(pk) AND (attribute_not_exists(approval_status) OR approval_status <> :revoked) AND ' +
      `(attribute_not_exists(#platform) OR #platform IN (${platforms.map((_, i) => `:platform${i}`).join(', ')}))`,
    ExpressionAttributeNames: { '#platform': 'platform' },
    ExpressionAttributeValues: {
      ':revoked': 'REVOKED',
      ...Object.fromEntries(platforms.map((platform, i) => [`:platform${i}`, platform])),
    },
  },
});

/** The scope of a customer in its collection: one partition per NIT. */
const nitScope = (nit: string): string => `NIT#${nit}`;

const CUSTOMERS: ListedKind<StoredCustomer, CustomerListFilters> = {
  name: 'CUSTOMER',
  key: itemKeys.customer,
  scopeOf: (customer) => nitScope(customer.identification_number),
  where: (filters) => ({
    scope: filters.identificationNumber && nitScope(filters.identificationNumber),
    equals: { status: filters.status, mobile_phone_number: filters.mobile },
  }),
};

/** What an audit event says of the customer it is about. */
const audited = (customer: StoredCustomer) => ({ resourceType: 'CUSTOMER' as const, resourceId: customer.id });

/** The customers' get and writes, without the list reads (listedStore). */
export const dynamoCustomerWrites: Omit<CustomerStore, 'list' | 'walk'> = {
  ...recordGetter(CUSTOMERS),

  // The client's own guard first: relinking its own NIT is 409 with its customer, not "linked elsewhere".
  insert: (customer: StoredCustomer, claim = { acrossClients: false }): Promise<InsertCustomerResult> =>
    insertListed(
      CUSTOMERS,
      customer,
      [
        uniqueGuard(
          itemKeys.nitGuard(customer.tenant, customer.identification_number),
          'NIT_GUARD',
          'customer_id',
          customer.id,
          (existingId) => ({ inserted: false, reason: 'already_linked', existingId }),
        ),
        ...(claim.acrossClients
          ? [
              uniqueGuard(
                itemKeys.nitClaim(customer.identification_number),
                'NIT_CLAIM',
                'customer_id',
                customer.id,
                () => ({ inserted: false, reason: 'linked_elsewhere' }) as const,
              ),
            ]
          : []),
      ],
      auditItems({ action: 'customer.linked', ...audited(customer), after: customer, at: customer.created_at }),
    ),

  async findByNit(tenant: string, nit: string): Promise<StoredCustomer | undefined> {
    const guard = await getRecord<{ customer_id: string }>(itemKeys.nitGuard(tenant, nit), { consistent: true });
    return guard ? dynamoCustomerWrites.get(guard.customer_id) : undefined;
  },

  // updated_at moves the customer in the updated_at orderings (gsi2, and gsi4 of its NIT scope).
  /**
   * The status change and its events in one transaction, while the customer still has the status it
   * was read with: the customer as the change leaves it (its status_version one more), or undefined
   * when another change came first.
   */
  async updateStatus(seen, status, now, events, approvedFor) {
    const updated: StoredCustomer = {
      ...seen,
      status,
      updated_at: now,
      status_version: (seen.status_version ?? 0) + 1,
    };
    const change = statusUpdate(itemKeys.customer(seen.id), seen.id, {
      from: seen.status,
      to: status,
      now,
      counter: 'status_version',
    });
    const refused = await writeUnless<'lost' | 'not_approved'>(
      [
        { item: { Update: change }, refused: () => 'lost' },
        ...(approvedFor === undefined
          ? []
          : [
              {
                item: approvalCheck(seen.identification_number, approvedFor),
                refused: () => 'not_approved' as const,
              },
            ]),
      ],
      [
        ...eventsPut(events?.(updated) ?? []),
        // Whoever changes it: the client (PATCH), or the sponsor bank revoking the merchant (its actor).
        ...auditItems({
          action: status === 'ACTIVE' ? 'customer.activated' : 'customer.deactivated',
          ...audited(seen),
          before: seen,
          after: updated,
          at: now,
        }),
      ],
    );
    return refused === 'lost' ? undefined : (refused ?? updated);
  },
};

/** Every read and write of the customers, lists included. */
export const dynamoCustomerStore: CustomerStore = /* @__PURE__ */ listedStore(CUSTOMERS, dynamoCustomerWrites);
