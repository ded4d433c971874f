/** A linked merchant with an account and an ACTIVE Bre-B key: what QR codes and payments start from. */
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
