/** The key status machine and the rules of registration, with in-memory stores. */
import type { StoredAccount } from '../../shared/domain/accounts';
import type { StoredCustomer } from '../../shared/domain/customers';
import type { DirectoryEntry } from '../../shared/domain/directory';
import { AppError } from '../../shared/domain/errors';
import {
  changeKeyStatus,
  keyForNewQrCode,
  registerKey,
  type KeyAction,
  type KeyStore,
  type StoredKey,
} from '../../shared/domain/keys';
import type { KeyStatus } from '../../shared/schemas/keys';

const NOW = '2026-11-22T03:00:00.000Z';
const clock = { now: () => NOW };
const ids = { newId: () => '11111111-1111-4111-8111-111111111111' };

const customer = {
  id: 'c1',
  tenant: 't1',
  status: 'ACTIVE',
  identification_number: '900123456',
  business_name: 'Tienda',
} as StoredCustomer;
const account = {
  id: 'a1',
  tenant: 't1',
  customer_id: 'c1',
  number: '000100200301',
  type: 'ORDINARY',
  account_status: 'ACTIVE',
} as StoredAccount;

function storeWith(status: KeyStatus) {
  const key: StoredKey = {
    id: 'k1',
    tenant: 't1',
    customer_id: 'c1',
    account_id: 'a1',
    key_type: 'ALPHA',
    key_value: '@tienda1',
    display_name: 'Tienda',
    status,
    created_at: NOW,
    updated_at: NOW,
  };
  const calls: KeyStatus[] = [];
  const store: Pick<KeyStore, 'get' | 'transition'> = {
    get: async (id) => (id === key.id ? key : undefined),
    transition: async (_key, to) => {
      calls.push(to);
      return 'changed';
    },
  };
  return { store, calls };
}

const codeOf = async (promise: Promise<unknown>): Promise<string> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).code;
};

describe('changeKeyStatus', () => {
  test.each<[KeyStatus, KeyAction, KeyStatus | 'unchanged' | string]>([
    ['ACTIVE', 'suspend', 'SUSPENDED'],
    ['ACTIVE', 'activate', 'unchanged'],
    ['ACTIVE', 'delete', 'DELETED'],
    ['SUSPENDED', 'suspend', 'unchanged'],
    ['SUSPENDED', 'activate', 'ACTIVE'],
    ['SUSPENDED', 'delete', 'DELETED'],
    ['DELETED', 'suspend', 'KEY_STATUS_CONFLICT'],
    ['DELETED', 'activate', 'KEY_STATUS_CONFLICT'],
    ['DELETED', 'delete', 'KEY_STATUS_CONFLICT'],
  ])('%s, %s -> %s', async (from, action, expected) => {
    const { store, calls } = storeWith(from);
    const run = changeKeyStatus({ keys: store, clock }, 't1', 'k1', action);
    if (expected === 'KEY_STATUS_CONFLICT') {
      expect(await codeOf(run)).toBe(expected);
      expect(calls).toEqual([]);
    } else if (expected === 'unchanged') {
      expect((await run).status).toBe(from);
      expect(calls).toEqual([]);
    } else {
      const answer = await run;
      expect([answer.status, answer.updated_at]).toEqual([expected, NOW]);
      expect(calls).toEqual([expected]);
    }
  });

  test('another client 403, unknown 404', async () => {
    const { store } = storeWith('ACTIVE');
    expect(await codeOf(changeKeyStatus({ keys: store, clock }, 't2', 'k1', 'suspend'))).toBe('FORBIDDEN');
    expect(await codeOf(changeKeyStatus({ keys: store, clock }, 't1', 'nope', 'suspend'))).toBe('NOT_FOUND');
  });
});

describe('keyForNewQrCode', () => {
  test.each<[KeyStatus, boolean]>([
    ['ACTIVE', true],
    ['SUSPENDED', false],
    ['DELETED', false],
  ])('a %s key serves new QR codes: %s', async (status, serves) => {
    const { store } = storeWith(status);
    if (serves) expect((await keyForNewQrCode(store, 't1', 'k1')).id).toBe('k1');
    else expect(await codeOf(keyForNewQrCode(store, 't1', 'k1'))).toBe('KEY_STATUS_CONFLICT');
  });
});

describe('registerKey', () => {
  const inserted: [StoredKey, DirectoryEntry][] = [];
  const deps = {
    customers: { get: async (id: string) => (id === customer.id ? customer : undefined) },
    accounts: { get: async (id: string) => (id === account.id ? account : undefined) },
    keys: {
      insert: async (key: StoredKey, entry: DirectoryEntry) => {
        inserted.push([key, entry]);
        return { inserted: true } as const;
      },
    },
    participant: { name: 'Banco Patrocinador S.A.', nit: '860000001' },
    clock,
    ids,
  };

  test('writes the key and a directory entry naming the merchant, its account and our sponsor bank', async () => {
    const answer = await registerKey(deps, 't1', {
      account_id: 'a1',
      key: { key_type: 'PHONE', key_value: '573001112233' },
    });
    expect(answer.key).toEqual({ key_type: 'PHONE', key_value: '3001112233' });
    expect(inserted.at(-1)?.[1]).toEqual({
      key: { key_type: 'PHONE', key_value: '3001112233' },
      owner: {
        identification_type: 'NIT',
        identification_number: '900123456',
        type: 'BUSINESS',
        business_name: 'Tienda',
      },
      participant: { name: 'Banco Patrocinador S.A.', identification_number: '860000001' },
      account: { account_number: '000100200301', account_type: 'ORDINARY' },
      source: 'API',
      status: 'ACTIVE',
      key_id: answer.id,
      tenant: 't1',
      created_at: NOW,
      updated_at: NOW,
    });
  });

  test('an ID key must be the NIT; bad formats are 400 before any read', async () => {
    expect(
      await codeOf(registerKey(deps, 't1', { account_id: 'a1', key: { key_type: 'ID', key_value: '900123457' } })),
    ).toBe('VALIDATION_FAILED');
    expect(
      (await registerKey(deps, 't1', { account_id: 'a1', key: { key_type: 'ID', key_value: '900123456' } })).status,
    ).toBe('ACTIVE');
    expect(
      await codeOf(registerKey(deps, 't9', { account_id: 'a1', key: { key_type: 'BCODE', key_value: '1' } })),
    ).toBe('VALIDATION_FAILED');
  });

  test('store refusals become 409 KEY_ALREADY_REGISTERED and 400 CUSTOMER_INACTIVE', async () => {
    for (const [reason, code] of [
      ['value_taken', 'KEY_ALREADY_REGISTERED'],
      ['customer_inactive', 'CUSTOMER_INACTIVE'],
      ['account_inactive', 'ACCOUNT_INACTIVE'],
    ] as const) {
      const refusing = { ...deps, keys: { insert: async () => ({ inserted: false, reason }) as const } };
      expect(
        await codeOf(
          registerKey(refusing, 't1', { account_id: 'a1', key: { key_type: 'ALPHA', key_value: '@tienda1' } }),
        ),
      ).toBe(code);
    }
  });
});
