/** Account and customer-status rules with in-memory stores: no DynamoDB, no HTTP. */
import {
  accountListItem,
  linkAccount,
  listAccounts,
  publicAccount,
  type AccountListFilters,
  type AccountStore,
  type InsertAccountResult,
  type StoredAccount,
} from '../../shared/domain/accounts';
import { setCustomerStatus, type StoredCustomer } from '../../shared/domain/customers';
import { AppError } from '../../shared/domain/errors';
import { EVERY_PLATFORM, type ApprovedMerchant } from '../../shared/domain/sponsor-bank';
import type { PageRequest } from '../../shared/domain/lists';
import { accountListItemSchema, accountSchema } from '../../shared/schemas/accounts';
import type { CustomerStatus } from '../../shared/schemas/customers';
import { requestAjv } from '../../tools/request-ajv';

// The AJV the schemas are written for: it knows their patternMessage keyword.
const ajv = requestAjv('body');

const TENANT = 'sandbox-client-a';
const NOW = '2025-06-15T12:00:00.000Z';
const CUSTOMER_ID = '3f1c2b9e-6a4d-4c1e-9a57-0b1f5e7d2c11';
const ACCOUNT_ID = '7d7c5a1e-1111-4000-8000-000000000001';

const customer = (overrides: Partial<StoredCustomer> = {}): StoredCustomer => ({
  id: CUSTOMER_ID,
  status: 'ACTIVE',
  type: 'BUSINESS',
  business_name: 'Tienda La Esperanza SAS',
  email: 'pagos@esperanza.co',
  mobile_phone_number: '+573001234567',
  identification_type: 'NIT',
  identification_number: '900123456',
  address: { line_1: 'Calle 10', city: 'Bogotá', state: 'Cundinamarca', post_code: '110111', country: 'CO' },
  merchant_category_code: '5411',
  created_at: NOW,
  updated_at: NOW,
  tenant: TENANT,
  ...overrides,
});

function deps(
  options: {
    stored?: StoredCustomer;
    approved?: boolean;
    merchant?: Partial<ApprovedMerchant> | null;
    insert?: InsertAccountResult;
  } = {},
) {
  const inserted: StoredAccount[] = [];
  const lookups: [string, string][] = [];
  return {
    inserted,
    lookups,
    customers: { get: async (id: string) => (id === CUSTOMER_ID ? (options.stored ?? customer()) : undefined) },
    accounts: {
      insert: async (account: StoredAccount, _claim?: { acrossClients: boolean }): Promise<InsertAccountResult> => {
        inserted.push(account);
        return options.insert ?? { inserted: true };
      },
    },
    sponsorBank: {
      findMerchant: async (nit: string): Promise<ApprovedMerchant | undefined> =>
        options.merchant === null
          ? undefined
          : {
              identificationType: 'NIT',
              identificationNumber: nit,
              businessName: 'Tienda La Esperanza SAS',
              approvedAt: NOW,
              platform: TENANT,
              status: 'APPROVED',
              ...options.merchant,
            },
      findAccount: async (nit: string, number: string) => {
        lookups.push([nit, number]);
        return options.approved === false ? undefined : { number, availableBalanceCents: 25_000_050 };
      },
    },
    clock: { now: () => NOW },
    ids: { newId: () => ACCOUNT_ID },
  };
}

const request = { customer_id: CUSTOMER_ID, type: 'ORDINARY', number: '000100200301' } as const;

async function codeOf(action: Promise<unknown>): Promise<string> {
  try {
    await action;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).code;
  }
  throw new Error('expected an AppError');
}

describe('linkAccount', () => {
  test("answers the contract's account object, with the sponsor bank balance and nothing pending", async () => {
    const d = deps();
    const account = await linkAccount(d, TENANT, request);
    expect(account).toEqual({
      id: ACCOUNT_ID,
      customer_id: CUSTOMER_ID,
      number: '000100200301',
      type: 'ORDINARY',
      available_balance: { currency: 'COP', value: '250000.50' },
      pending_balance: { currency: 'COP', value: '0.00' },
      created_at: NOW,
      updated_at: NOW,
    });
    expect(ajv.validate(accountSchema, account)).toBe(true);
    expect(d.lookups).toEqual([['900123456', '000100200301']]);
    expect(d.inserted[0]).toMatchObject({
      tenant: TENANT,
      account_name: 'Tienda La Esperanza SAS',
      customer_status: 'ACTIVE',
      customer_status_version: 0,
      customer_mobile: '+573001234567',
    });
  });

  test('accepts the customer id in upper case', async () => {
    await expect(
      linkAccount(deps(), TENANT, { ...request, customer_id: CUSTOMER_ID.toUpperCase() }),
    ).resolves.toMatchObject({ customer_id: CUSTOMER_ID });
  });

  test.each<[string, Parameters<typeof deps>[0], string, string]>([
    ['an unknown customer', {}, '7d7c5a1e-0000-4000-8000-000000000000', 'NOT_FOUND'],
    ["another client's customer", { stored: customer({ tenant: 'sandbox-client-b' }) }, CUSTOMER_ID, 'FORBIDDEN'],
    ['an inactive customer', { stored: customer({ status: 'INACTIVE' }) }, CUSTOMER_ID, 'CUSTOMER_INACTIVE'],
    ['a number not approved for the NIT', { approved: false }, CUSTOMER_ID, 'ACCOUNT_NOT_APPROVED'],
    ['a merchant no longer approved', { merchant: null }, CUSTOMER_ID, 'ACCOUNT_NOT_APPROVED'],
    [
      'a merchant approved for another platform',
      { merchant: { platform: 'sandbox-client-b' } },
      CUSTOMER_ID,
      'ACCOUNT_NOT_APPROVED',
    ],
    ['a revoked merchant', { merchant: { status: 'REVOKED' } }, CUSTOMER_ID, 'ACCOUNT_NOT_APPROVED'],
    [
      "a number another client's customer linked",
      { insert: { inserted: false, reason: 'linked_elsewhere' } },
      CUSTOMER_ID,
      'ACCOUNT_NOT_APPROVED',
    ],
    [
      'a number the customer already linked',
      { insert: { inserted: false, reason: 'number_taken', existingId: 'a-1' } },
      CUSTOMER_ID,
      'ACCOUNT_ALREADY_LINKED',
    ],
    [
      'a customer deactivated meanwhile',
      { insert: { inserted: false, reason: 'customer_inactive' } },
      CUSTOMER_ID,
      'CUSTOMER_INACTIVE',
    ],
  ])('rejects %s', async (_, options, customerId, code) => {
    expect(await codeOf(linkAccount(deps(options), TENANT, { ...request, customer_id: customerId }))).toBe(code);
  });

  test("a number is claimed across clients unless the approval is every platform's (the sandbox fixture)", async () => {
    const claims: boolean[] = [];
    for (const platform of [TENANT, EVERY_PLATFORM]) {
      const d = deps({ merchant: { platform } });
      const insert = d.accounts.insert;
      d.accounts.insert = async (account, claim) => {
        claims.push(claim?.acrossClients === true);
        return insert(account);
      };
      await linkAccount(d, TENANT, request);
    }
    expect(claims).toEqual([true, false]);
  });

  test('a conflict names the existing account', async () => {
    const error = await linkAccount(
      deps({ insert: { inserted: false, reason: 'number_taken', existingId: 'a-1' } }),
      TENANT,
      request,
    ).catch((e: unknown) => e as AppError);
    expect((error as AppError).extensions).toEqual({ account_id: 'a-1' });
  });

  test('checks ownership before status, and status before the sponsor bank', async () => {
    const d = deps({ stored: customer({ tenant: 'other', status: 'INACTIVE' }), approved: false });
    expect(await codeOf(linkAccount(d, TENANT, request))).toBe('FORBIDDEN');
    const inactive = deps({ stored: customer({ status: 'INACTIVE' }), approved: false });
    expect(await codeOf(linkAccount(inactive, TENANT, request))).toBe('CUSTOMER_INACTIVE');
    expect(inactive.lookups).toEqual([]);
  });
});

describe('account representations', () => {
  const stored: StoredAccount = {
    id: ACCOUNT_ID,
    tenant: TENANT,
    customer_id: CUSTOMER_ID,
    number: '000100200301',
    type: 'ORDINARY',
    account_status: 'ACTIVE',
    account_name: 'Tienda La Esperanza SAS',
    available_balance_cents: 100_000_000,
    pending_balance_cents: 1_050,
    customer_status: 'INACTIVE',
    customer_status_version: 3,
    customer_mobile: '+573001234567',
    created_at: NOW,
    updated_at: NOW,
  };

  test('the list item carries every list field of the contract, and nothing stored only for us', () => {
    const item = accountListItem(stored, 'Banco Patrocinador S.A.');
    expect(item).toEqual({
      id: ACCOUNT_ID,
      customer_id: CUSTOMER_ID,
      account_number: '000100200301',
      account_name: 'Tienda La Esperanza SAS',
      bank_name: 'Banco Patrocinador S.A.',
      account_status: 'ACTIVE',
      account_type: 'ORDINARY',
      available_balance: { currency: 'COP', value: '1000000.00' },
      pending_balance: { currency: 'COP', value: '10.50' },
      created_at: NOW,
      updated_at: NOW,
    });
    expect(ajv.validate(accountListItemSchema, item)).toBe(true);
  });

  test('the account object leaves out tenant and customer copies', () => {
    expect(Object.keys(publicAccount(stored)).sort()).toEqual(
      [
        'available_balance',
        'created_at',
        'customer_id',
        'id',
        'number',
        'pending_balance',
        'type',
        'updated_at',
      ].sort(),
    );
  });
});

describe('listAccounts', () => {
  test('normalises filters: status in any case, mobile in any accepted form, a + decoded as a space', async () => {
    const seen: AccountListFilters[] = [];
    const store: Pick<AccountStore, 'list'> = {
      list: async (_tenant: string, filters: AccountListFilters, _request: PageRequest) => {
        seen.push(filters);
        return { items: [], total: 0 };
      },
    };
    for (const mobile of ['3001234567', '573001234567', '+573001234567', ' 573001234567']) {
      const answer = await listAccounts(
        { accounts: store, bankName: 'B' },
        TENANT,
        { customer_status: 'inActive', mobile, customer_id: CUSTOMER_ID.toUpperCase() },
        NOW,
      );
      expect(answer).toEqual({
        accounts: [],
        pagination_info: { total_elements: 0, total_pages: 0, current_page: 1, first_request_timestamp: NOW },
      });
    }
    expect(new Set(seen.map((f) => JSON.stringify(f)))).toEqual(
      new Set([JSON.stringify({ customerId: CUSTOMER_ID, customerStatus: 'INACTIVE', mobile: '+573001234567' })]),
    );
  });
});

describe('setCustomerStatus', () => {
  /** `approvedPlatform`: the client the sponsor bank approves the merchant for (the store checks it). */
  function statusDeps(initial: StoredCustomer, raceOnce = false, approvedPlatform = TENANT) {
    let current = initial;
    let raced = !raceOnce;
    const propagated: [string, CustomerStatus, number][] = [];
    const asked: (readonly string[] | undefined)[] = [];
    return {
      propagated,
      asked,
      current: () => current,
      customers: {
        get: async () => current,
        updateStatus: async (
          seen: StoredCustomer,
          status: CustomerStatus,
          now: string,
          _events?: unknown,
          approvedFor?: readonly string[],
        ) => {
          asked.push(approvedFor);
          if (approvedFor !== undefined && !approvedFor.includes(approvedPlatform)) return 'not_approved' as const;
          if (!raced) {
            // Another request changes the customer first.
            raced = true;
            current = { ...current, status: seen.status === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE', status_version: 7 };
            return undefined;
          }
          if (seen.status !== current.status) return undefined;
          current = { ...current, status, updated_at: now, status_version: (current.status_version ?? 0) + 1 };
          return current;
        },
      },
      followers: {
        accountIdsOf: async () => ['acc_1'],
        propagateCustomerStatus: async (
          id: string,
          status: CustomerStatus,
          version: number,
          known?: readonly string[],
        ) => {
          expect(known).toEqual(['acc_1']);
          propagated.push([id, status, version]);
        },
      },
      clock: { now: () => '2025-06-16T00:00:00.000Z' },
      ids: { newId: () => '22222222-2222-4222-8222-222222222222' },
    };
  }

  test('changes status and updated_at, then copies the status to the accounts with its version', async () => {
    const d = statusDeps(customer());
    const answer = await setCustomerStatus(d, TENANT, CUSTOMER_ID, 'INACTIVE');
    expect(answer).toMatchObject({ status: 'INACTIVE', updated_at: '2025-06-16T00:00:00.000Z' });
    expect(answer).not.toHaveProperty('status_version');
    expect(answer).not.toHaveProperty('tenant');
    expect(d.propagated).toEqual([[CUSTOMER_ID, 'INACTIVE', 1]]);
  });

  test('setting the current status changes nothing but still repairs the copies', async () => {
    const d = statusDeps(customer({ status_version: 4 }));
    const answer = await setCustomerStatus(d, TENANT, CUSTOMER_ID, 'ACTIVE');
    expect(answer.updated_at).toBe(NOW);
    expect(d.propagated).toEqual([[CUSTOMER_ID, 'ACTIVE', 4]]);
  });

  test('a change that loses a race reads the customer again', async () => {
    const d = statusDeps(customer(), true);
    // The racing request already deactivated it: nothing left to change.
    const answer = await setCustomerStatus(d, TENANT, CUSTOMER_ID, 'INACTIVE');
    expect(answer.status).toBe('INACTIVE');
    expect(d.propagated).toEqual([[CUSTOMER_ID, 'INACTIVE', 7]]);
  });

  test("a merchant the bank approves for another client now is not activated again: the change's write checks", async () => {
    const d = statusDeps(customer({ status: 'INACTIVE' }), false, 'sandbox-client-b');
    expect(await codeOf(setCustomerStatus(d, TENANT, CUSTOMER_ID, 'ACTIVE'))).toBe('MERCHANT_NOT_APPROVED');
    expect(d.current().status).toBe('INACTIVE');
    expect(d.asked).toEqual([[TENANT, EVERY_PLATFORM]]);
    // Deactivating asks nobody.
    const active = statusDeps(customer(), false, 'sandbox-client-b');
    await expect(setCustomerStatus(active, TENANT, CUSTOMER_ID, 'INACTIVE')).resolves.toMatchObject({
      status: 'INACTIVE',
    });
    expect(active.asked).toEqual([undefined]);
  });

  test("another client's customer is 403, an unknown one 404", async () => {
    const d = statusDeps(customer({ tenant: 'sandbox-client-b' }));
    expect(await codeOf(setCustomerStatus(d, TENANT, CUSTOMER_ID, 'INACTIVE'))).toBe('FORBIDDEN');
    const missing = {
      ...statusDeps(customer()),
      customers: { get: async () => undefined, updateStatus: async () => undefined },
    };
    expect(await codeOf(setCustomerStatus(missing, TENANT, CUSTOMER_ID, 'INACTIVE'))).toBe('NOT_FOUND');
    expect(d.propagated).toEqual([]);
  });
});
