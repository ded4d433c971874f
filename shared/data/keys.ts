/**
 * Key design of the single table. Every item carries `entity`; entity items are keyed by their id,
 * uniqueness guards by the value they protect (written in the same transaction as the entity).
 */
export interface ItemKey {
  readonly pk: string;
  readonly sk: string;
}

export const keys = {
  customer: (id: string): ItemKey => ({ pk: `CUSTOMER#${id}`, sk: 'CUSTOMER' }),
  /** One NIT per client: the guard item holds the id of the customer that took it. */
  nitGuard: (tenant: string, nit: string): ItemKey => ({ pk: `GUARD#NIT#${tenant}#${nit}`, sk: 'GUARD' }),
  sponsorMerchant: (nit: string): ItemKey => ({ pk: `SPONSOR#${nit}`, sk: 'MERCHANT' }),
  sponsorAccount: (nit: string, number: string): ItemKey => ({ pk: `SPONSOR#${nit}`, sk: `ACCOUNT#${number}` }),
  sponsorAccountPrefix: 'ACCOUNT#',
  idempotency: (tenant: string, key: string): ItemKey => ({ pk: `IDEMPOTENCY#${tenant}#${key}`, sk: 'IDEMPOTENCY' }),
} as const;

/** Index keys that list a tenant's collection by creation and by update time. */
export function collectionKeys(tenant: string, collection: string, id: string, createdAt: string, updatedAt: string) {
  const partition = `${tenant}#${collection}`;
  return {
    gsi1pk: partition,
    gsi1sk: `${createdAt}#${id}`,
    gsi2pk: partition,
    gsi2sk: `${updatedAt}#${id}`,
  };
}

const STORAGE_ATTRIBUTES = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'entity', 'expires_at']);

/** The stored record without the attributes that only exist for the table's sake. */
export function withoutStorageAttributes<T>(item: Record<string, unknown>): T {
  return Object.fromEntries(Object.entries(item).filter(([name]) => !STORAGE_ATTRIBUTES.has(name))) as T;
}
