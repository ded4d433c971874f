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
import type { KeyPublisher } from '../../shared/domain/key-publishing';
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
  const told: string[] = [];
  const outcome: { transition: 'changed' | 'conflict' | 'customer_inactive' } = { transition: 'changed' };
  const store: Pick<KeyStore, 'get' | 'transition'> = {
    get: async (id) => (id === key.id ? key : undefined),
    transition: async (_key, to) => {
      calls.push(to);
      told.push(`table ${to}`);
      return outcome.transition;
    },
  };
  return { store, calls, told, outcome, publisher: recordingPublisher(told) };
}

/** A publisher that records what the directory was told, in order, in `told` (shared with the store's calls). */
function recordingPublisher(told: string[], failing = false): KeyPublisher {
  const tell = (what: string) => {
    if (failing) return Promise.reject(new AppError('SERVICE_UNAVAILABLE', 'down'));
    told.push(what);
    return Promise.resolve();
  };
  return {
    publish: (entry) => tell(`publish ${entry.key.key_value}`),
    setStatus: (key, status) => tell(`${status} ${key.key_value}`),
    withdraw: (key) => tell(`withdraw ${key.key_value}`),
  };
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
    const { store, calls, publisher } = storeWith(from);
    const run = changeKeyStatus({ keys: store, publisher, clock }, 't1', 'k1', action);
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
    const { store, publisher } = storeWith('ACTIVE');
    expect(await codeOf(changeKeyStatus({ keys: store, publisher, clock }, 't2', 'k1', 'suspend'))).toBe('FORBIDDEN');
    expect(await codeOf(changeKeyStatus({ keys: store, publisher, clock }, 't1', 'nope', 'suspend'))).toBe('NOT_FOUND');
  });

  test.each<[KeyAction, KeyStatus, string]>([
    ['suspend', 'ACTIVE', 'SUSPENDED @tienda1'],
    ['activate', 'SUSPENDED', 'ACTIVE @tienda1'],
    ['delete', 'ACTIVE', 'withdraw @tienda1'],
  ])('%s tells the directory first, then changes the table', async (action, from, told) => {
    const { store, publisher, told: log } = storeWith(from);
    await changeKeyStatus({ keys: store, publisher, clock }, 't1', 'k1', action);
    expect(log).toEqual([told, `table ${told.startsWith('withdraw') ? 'DELETED' : told.split(' ')[0]}`]);
  });

  test('a directory that does not answer changes nothing in the table', async () => {
    const { store, calls } = storeWith('ACTIVE');
    const down = recordingPublisher([], true);
    expect(await codeOf(changeKeyStatus({ keys: store, publisher: down, clock }, 't1', 'k1', 'suspend'))).toBe(
      'SERVICE_UNAVAILABLE',
    );
    expect(calls).toEqual([]);
  });

  test.each([
    ['conflict', 'CONCURRENT_UPDATE'],
    ['customer_inactive', 'CUSTOMER_INACTIVE'],
  ] as const)('refused by the table (%s): the directory is told the status the key kept', async (refusal, code) => {
    const { store, publisher, told, outcome } = storeWith('SUSPENDED');
    outcome.transition = refusal;
    expect(await codeOf(changeKeyStatus({ keys: store, publisher, clock }, 't1', 'k1', 'activate'))).toBe(code);
    expect(told).toEqual(['ACTIVE @tienda1', 'table ACTIVE', 'SUSPENDED @tienda1']);
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
    publisher: recordingPublisher([]),
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

  test('publishes the key in the directory before it writes it', async () => {
    const order: string[] = [];
    const watching = {
      ...deps,
      publisher: recordingPublisher(order),
      keys: {
        insert: async (key: StoredKey, entry: DirectoryEntry) => {
          order.push('table');
          return deps.keys.insert(key, entry);
        },
      },
    };
    await registerKey(watching, 't1', { account_id: 'a1', key: { key_type: 'ALPHA', key_value: '@tienda9' } });
    expect(order).toEqual(['publish @tienda9', 'table']);
  });

  test('a directory that does not answer stores nothing', async () => {
    const before = inserted.length;
    const down = { ...deps, publisher: recordingPublisher([], true) };
    expect(
      await codeOf(registerKey(down, 't1', { account_id: 'a1', key: { key_type: 'ALPHA', key_value: '@tienda8' } })),
    ).toBe('SERVICE_UNAVAILABLE');
    expect(inserted.length).toBe(before);
  });

  test.each([
    // A value taken here is a key of ours for this account: the directory keeps it.
    ['value_taken', 'KEY_ALREADY_REGISTERED', ['publish @tienda1']],
    ['customer_inactive', 'CUSTOMER_INACTIVE', ['publish @tienda1', 'withdraw @tienda1']],
    ['account_inactive', 'ACCOUNT_INACTIVE', ['publish @tienda1', 'withdraw @tienda1']],
  ] as const)('refused by the table (%s): %s, and the directory is told %j', async (reason, code, published) => {
    const log: string[] = [];
    const refusing = {
      ...deps,
      publisher: recordingPublisher(log),
      keys: { insert: async () => ({ inserted: false, reason }) as const },
    };
    expect(
      await codeOf(
        registerKey(refusing, 't1', { account_id: 'a1', key: { key_type: 'ALPHA', key_value: '@tienda1' } }),
      ),
    ).toBe(code);
    expect(log).toEqual(published);
  });
});
