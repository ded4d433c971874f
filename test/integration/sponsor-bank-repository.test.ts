/** The sponsor bank's approved merchants and accounts in DynamoDB Local (docs/sandbox.md). */
import { randomInt } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  approveSponsorBankMerchant,
  DEFAULT_SANDBOX_BALANCE_CENTS,
  approvedFor,
  claimsAcrossClients,
  type ApprovedMerchant,
} from '../../shared/domain/sponsor-bank';
import { createTestTable, type TestTable } from '../support/dynamo-table';

let table: TestTable;
let bank: typeof import('../../shared/data/sponsor-bank-repository').dynamoSponsorBank;

beforeAll(async () => {
  table = await createTestTable('sponsor-bank');
  ({ dynamoSponsorBank: bank } = await import('../../shared/data/sponsor-bank-repository'));
});
afterAll(() => table.drop());

const usedNits = new Set<string>();
function uniqueNit(): string {
  let nit: string;
  do nit = String(randomInt(100_000_000, 1_000_000_000));
  while (usedNits.has(nit));
  usedNits.add(nit);
  return nit;
}

const merchant = (
  nit: string,
  businessName = 'Tienda La Esperanza SAS',
  approvedAt = '2025-01-02T03:04:05.678Z',
): ApprovedMerchant => ({
  identificationType: 'NIT',
  identificationNumber: nit,
  businessName,
  approvedAt,
  platform: 'client-a',
  status: 'APPROVED',
});

const byNumber = <T extends { number: string }>(accounts: readonly T[] | 'other_platform'): T[] => {
  if (accounts === 'other_platform') throw new Error('refused: approved for another platform');
  return [...accounts].sort((a, b) => a.number.localeCompare(b.number));
};

describe('dynamoSponsorBank', () => {
  test('saveMerchant then findMerchant', async () => {
    const nit = uniqueNit();
    const accounts = await bank.saveMerchant(merchant(nit), [
      { number: '000100200301', availableBalanceCents: 10_000 },
      { number: '000100200302', availableBalanceCents: 20_000 },
    ]);
    expect(byNumber(accounts)).toEqual([
      { number: '000100200301', availableBalanceCents: 10_000 },
      { number: '000100200302', availableBalanceCents: 20_000 },
    ]);
    await expect(bank.findMerchant(nit)).resolves.toEqual(merchant(nit));
  });

  test('an unknown NIT is not approved', async () => {
    await expect(bank.findMerchant(uniqueNit())).resolves.toBeUndefined();
  });

  test('a merchant without accounts has none', async () => {
    const nit = uniqueNit();
    await expect(bank.saveMerchant(merchant(nit), [])).resolves.toEqual([]);
    await expect(bank.findMerchant(nit)).resolves.toBeDefined();
  });

  test('approving again adds the new accounts and keeps existing balances', async () => {
    const nit = uniqueNit();
    await bank.saveMerchant(merchant(nit), [
      { number: '1111', availableBalanceCents: 10_000 },
      { number: '2222', availableBalanceCents: 20_000 },
    ]);

    // 1111 again with another balance: the bank already holds it, so its balance stays.
    const accounts = await bank.saveMerchant(merchant(nit, 'Tienda La Esperanza SAS', '2025-06-01T00:00:00.000Z'), [
      { number: '1111', availableBalanceCents: 99_999_999 },
      { number: '3333', availableBalanceCents: 30_000 },
    ]);

    expect(byNumber(accounts)).toEqual([
      { number: '1111', availableBalanceCents: 10_000 },
      { number: '2222', availableBalanceCents: 20_000 },
      { number: '3333', availableBalanceCents: 30_000 },
    ]);
    const stored = await table.scan(
      (item) => item['entity'] === 'SPONSOR_ACCOUNT' && String(item['pk']) === `SPONSOR#${nit}`,
    );
    expect(stored).toHaveLength(3);
  });

  test('approving again keeps the first approval time and takes the new business name', async () => {
    const nit = uniqueNit();
    await bank.saveMerchant(merchant(nit, 'Nombre Viejo SAS', '2025-01-01T00:00:00.000Z'), []);
    await bank.saveMerchant(merchant(nit, 'Nombre Nuevo SAS', '2025-02-01T00:00:00.000Z'), []);
    await expect(bank.findMerchant(nit)).resolves.toEqual(
      merchant(nit, 'Nombre Nuevo SAS', '2025-01-01T00:00:00.000Z'),
    );
  });

  test('accounts of one merchant are not listed for another', async () => {
    const first = uniqueNit();
    const second = uniqueNit();
    await bank.saveMerchant(merchant(first), [{ number: '5555', availableBalanceCents: 1 }]);
    await expect(bank.saveMerchant(merchant(second), [{ number: '6666', availableBalanceCents: 2 }])).resolves.toEqual([
      { number: '6666', availableBalanceCents: 2 },
    ]);
  });
});

describe('approveSponsorBankMerchant', () => {
  test('accounts start with 1000000.00 COP unless the request gives a balance', async () => {
    const nit = uniqueNit();
    const answer = await approveSponsorBankMerchant(
      bank,
      {
        identification_type: 'NIT',
        identification_number: nit,
        business_name: 'Tienda La Esperanza SAS',
        accounts: [
          '000100200301',
          { number: '000100200302', available_balance: '250000.00' },
          { number: '000100200303' },
        ],
      },
      '2025-01-02T03:04:05.678Z',
      'client-a',
    );

    expect(DEFAULT_SANDBOX_BALANCE_CENTS).toBe(100_000_000);
    expect({ ...answer, accounts: byNumber(answer.accounts) }).toEqual({
      identification_type: 'NIT',
      identification_number: nit,
      business_name: 'Tienda La Esperanza SAS',
      accounts: [
        { number: '000100200301', available_balance: { currency: 'COP', value: '1000000.00' } },
        { number: '000100200302', available_balance: { currency: 'COP', value: '250000.00' } },
        { number: '000100200303', available_balance: { currency: 'COP', value: '1000000.00' } },
      ],
    });
    const stored = await table.scan((item) => item['pk'] === `SPONSOR#${nit}` && item['number'] === '000100200302');
    expect(stored[0]?.['available_balance_cents']).toBe(25_000_000);
  });

  test('approving again answers every account the bank holds, old balances untouched', async () => {
    const nit = uniqueNit();
    const request = { identification_type: 'NIT', identification_number: nit, business_name: 'Tienda SAS' } as const;
    await approveSponsorBankMerchant(
      bank,
      { ...request, accounts: [{ number: '7777', available_balance: '5.00' }] },
      '2025-01-01T00:00:00.000Z',
      'client-a',
    );
    const again = await approveSponsorBankMerchant(
      bank,
      { ...request, accounts: ['7777', '8888'] },
      '2025-01-02T00:00:00.000Z',
      'client-a',
    );
    expect(byNumber(again.accounts)).toEqual([
      { number: '7777', available_balance: { currency: 'COP', value: '5.00' } },
      { number: '8888', available_balance: { currency: 'COP', value: '1000000.00' } },
    ]);
  });

  test('without accounts the merchant is approved with none', async () => {
    const nit = uniqueNit();
    const answer = await approveSponsorBankMerchant(
      bank,
      { identification_type: 'NIT', identification_number: nit, business_name: 'Sin Cuentas SAS' },
      '2025-01-02T00:00:00.000Z',
      'client-a',
    );
    expect(answer.accounts).toEqual([]);
    await expect(bank.findMerchant(nit)).resolves.toMatchObject({ businessName: 'Sin Cuentas SAS' });
  });

  test("a platform approves only its own NITs: another platform's is 403 and nothing changes", async () => {
    const nit = uniqueNit();
    const request = { identification_type: 'NIT', identification_number: nit, business_name: 'Mía SAS' } as const;
    await approveSponsorBankMerchant(bank, { ...request, accounts: ['1212'] }, '2025-01-01T00:00:00.000Z', 'client-a');
    await expect(
      approveSponsorBankMerchant(
        bank,
        { ...request, business_name: 'Robada SAS', accounts: ['3434'] },
        '2025-01-02T00:00:00.000Z',
        'client-b',
      ),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(bank.findMerchant(nit)).resolves.toMatchObject({ platform: 'client-a', businessName: 'Mía SAS' });
    await expect(bank.findAccount(nit, '3434')).resolves.toBeUndefined();
  });

  test('the bank moves an approval to another platform, or revokes it', async () => {
    const nit = uniqueNit();
    await bank.saveMerchant(merchant(nit), [], 'bank');
    await bank.saveMerchant({ ...merchant(nit), platform: 'client-b' }, [], 'bank');
    await expect(bank.findMerchant(nit)).resolves.toMatchObject({ platform: 'client-b', status: 'APPROVED' });
    await bank.saveMerchant({ ...merchant(nit), platform: 'client-b', status: 'REVOKED' }, [], 'bank');
    await expect(bank.findMerchant(nit)).resolves.toMatchObject({ platform: 'client-b', status: 'REVOKED' });
  });

  test('an approval stored before approvals named a platform is APPROVED for every platform', async () => {
    const nit = uniqueNit();
    await table.documents.send(
      new PutCommand({
        TableName: table.tableName,
        Item: {
          pk: `SPONSOR#${nit}`,
          sk: 'MERCHANT',
          entity: 'SPONSOR_MERCHANT',
          identification_type: 'NIT',
          identification_number: nit,
          business_name: 'Antigua SAS',
          approved_at: '2024-01-01T00:00:00.000Z',
        },
      }),
    );
    const approval = await bank.findMerchant(nit);
    expect(approval).not.toHaveProperty('platform');
    expect(approval).not.toHaveProperty('status');
    expect(approvedFor(approval, 'any-client')).toBe(true);
    expect(claimsAcrossClients(approval!)).toBe(false);
  });
});
