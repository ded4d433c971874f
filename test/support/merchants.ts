/**
 * A linked merchant with an account and an ACTIVE Bre-B key: what QR codes and payments start from;
 * and a resolution of a key for a customer, what payments and recipients name.
 */
import { accountNumbers, linkAccount, linkedCustomer } from './accounts';
import type { TestApi } from './local-api';

export interface MerchantWithKey {
  readonly customerId: string;
  readonly accountId: string;
  readonly accountNumber: string;
  readonly keyId: string;
  readonly key: { readonly key_type: string; readonly key_value: string };
  readonly nit: string;
  readonly businessName: string;
}

let counter = 0;
/** An ALPHA key value no other test of this run uses. */
export const uniqueAlphaKey = (): string => `@m${process.pid % 100000}x${++counter}`;

export async function merchantWithKey(
  api: TestApi,
  token: string,
  options: { readonly businessName?: string; readonly availableBalance?: string } = {},
): Promise<MerchantWithKey> {
  const [number] = accountNumbers(1) as [string];
  const customer = await linkedCustomer(api, token, {
    numbers: [options.availableBalance ? { number, available_balance: options.availableBalance } : number],
    ...(options.businessName ? { businessName: options.businessName } : {}),
  });
  const account = await linkAccount(api, token, customer.id, number);
  if (account.status !== 200) throw new Error(`Account link failed: ${account.status} ${account.text}`);
  const key = { key_type: 'ALPHA', key_value: uniqueAlphaKey() };
  const registered = await api.request('POST', '/v1/keys', { token, body: { account_id: account.body.id, key } });
  if (registered.status !== 200) throw new Error(`Key registration failed: ${registered.status} ${registered.text}`);
  return {
    customerId: customer.id,
    accountId: account.body.id,
    accountNumber: number,
    keyId: registered.body.id,
    key: registered.body.key,
    nit: customer.nit,
    businessName: customer.body.business_name,
  };
}

/** Resolves `key` for the customer through the API; answers the resolution's id. */
export async function resolvedKey(
  api: Pick<TestApi, 'request'>,
  token: string,
  customerId: string,
  key: { readonly key_type?: string; readonly key_value: string },
): Promise<string> {
  const answer = await api.request('POST', '/v1/resolve-key', { token, body: { customer_id: customerId, key } });
  if (answer.status !== 200) throw new Error(`Resolve failed: ${answer.status} ${answer.text}`);
  return answer.body.id;
}
