/** Building blocks of the account and list end-to-end tests: approved merchants, customers, accounts. */
import { linkMerchantBody, uniqueNit } from './fixtures';
import type { ApiAnswer, TestApi } from './local-api';

/** Twelve-digit account numbers no other merchant of the test file uses. */
let numberCounter = 0;
export function accountNumbers(count: number): string[] {
  return Array.from({ length: count }, () => String(500_000_000_000 + process.pid * 10_000 + ++numberCounter));
}

export interface LinkedCustomer {
  readonly id: string;
  readonly nit: string;
  readonly body: Record<string, any>;
  /** Numbers the sponsor bank approved for this merchant. */
  readonly numbers: string[];
}

/** A merchant approved at the sponsor bank with `numbers`, linked as a customer by the token's client. */
export async function linkedCustomer(
  api: TestApi,
  token: string,
  options: {
    readonly numbers?: readonly (string | { number: string; available_balance: string })[];
    readonly mobile?: string;
    readonly businessName?: string;
  } = {},
): Promise<LinkedCustomer> {
  const nit = uniqueNit();
  const businessName = options.businessName ?? `Comercio ${nit} SAS`;
  const approval = await api.request('POST', '/sandbox/sponsor-bank/merchants', {
    token,
    body: {
      identification_type: 'NIT',
      identification_number: nit,
      business_name: businessName,
      accounts: options.numbers ?? [],
    },
  });
  if (approval.status !== 201) throw new Error(`Approval failed: ${approval.status} ${approval.text}`);
  const linked = await api.request('POST', '/v1/customers/business/link', {
    token,
    body: linkMerchantBody({
      identification_number: nit,
      business_name: businessName,
      ...(options.mobile ? { mobile_phone_number: options.mobile } : {}),
    }),
  });
  if (linked.status !== 200) throw new Error(`Link failed: ${linked.status} ${linked.text}`);
  const numbers = (options.numbers ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.number));
  return { id: linked.body.id, nit, body: linked.body, numbers };
}

export function linkAccount(
  api: TestApi,
  token: string,
  customerId: string,
  number: string,
  path = '/accounts',
): Promise<ApiAnswer> {
  return api.request('POST', path, { token, body: { customer_id: customerId, type: 'ORDINARY', number } });
}

/**
 * An account's available balance, read through the API. Its pending balance stays 0.00: every
 * payment our merchants receive settles at once (docs/payments.md).
 */
export async function availableBalance(api: TestApi, token: string, accountId: string): Promise<string> {
  const answer = await api.request('GET', `/v1/accounts/${accountId}`, { token });
  if (answer.status !== 200) throw new Error(`Account read failed: ${answer.status} ${answer.text}`);
  expect(answer.body.pending_balance).toEqual({ currency: 'COP', value: '0.00' });
  return answer.body.available_balance.value;
}

export function setStatus(api: TestApi, token: string, customerId: string, status: string): Promise<ApiAnswer> {
  return api.request('PATCH', `/v1/customers/${customerId}`, { token, body: { status } });
}

/** The query string of a list request. */
export const queryString = (query: Record<string, string | number | undefined>): string => {
  const entries = Object.entries(query).filter(([, value]) => value !== undefined) as [string, string | number][];
  const pairs = entries.map(([name, value]): [string, string] => [name, String(value)]);
  return pairs.length ? `?${new URLSearchParams(pairs).toString()}` : '';
};

export interface Walk<T> {
  readonly items: T[];
  readonly pages: ApiAnswer[];
}

/**
 * Every page of a list, first to last: page 1 starts the walk, later pages send its
 * first_request_timestamp back. Fails on any answer other than 200.
 */
export async function walkAll<T = Record<string, any>>(
  api: TestApi,
  token: string,
  path: string,
  collection: string,
  query: Record<string, string | number | undefined> = {},
): Promise<Walk<T>> {
  const pages: ApiAnswer[] = [];
  const items: T[] = [];
  let snapshot: string | undefined;
  for (let page = 1; ; page += 1) {
    const answer = await api.request(
      'GET',
      `${path}${queryString({ ...query, page_number: page, first_request_timestamp: snapshot })}`,
      {
        token,
      },
    );
    if (answer.status !== 200) throw new Error(`Page ${page} answered ${answer.status}: ${answer.text}`);
    pages.push(answer);
    items.push(...(answer.body[collection] as T[]));
    snapshot ??= answer.body.pagination_info.first_request_timestamp;
    if (page >= answer.body.pagination_info.total_pages) return { items, pages };
  }
}

/** Sorting as the lists do: by the order key, then by id. */
export function sortedBy<T extends { id: string; created_at: string; updated_at: string }>(
  items: readonly T[],
  key: 'created_at' | 'updated_at' = 'created_at',
  direction: 'asc' | 'desc' = 'asc',
): T[] {
  const sorted = [...items].sort((a, b) => (`${a[key]}#${a.id}` < `${b[key]}#${b.id}` ? -1 : 1));
  return direction === 'desc' ? sorted.reverse() : sorted;
}
