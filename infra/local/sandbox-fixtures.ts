/**
 * The sandbox's out-of-band data (docs/sandbox.md): the merchant approved at the sponsor bank
 * and its accounts, and keys of the Bre-B directory registered at another participant. Seeding is
 * idempotent: existing accounts keep their balances, existing directory entries stay as they are.
 */
import type { DirectoryEntry, DirectoryStore } from '../../shared/domain/directory';
import { SANDBOX_SHOPPER } from '../../shared/domain/sandbox-inbound';
import { approveSponsorBankMerchant, EVERY_PLATFORM, type SponsorBankStore } from '../../shared/domain/sponsor-bank';

export const SANDBOX_MERCHANT = {
  identification_type: 'NIT',
  identification_number: '900123456',
  business_name: 'Tienda La Esperanza SAS',
  accounts: ['000100200301', '000100200302', '000100200303'],
} as const;

/**
 * The person of the sandbox directory, at another participant of the network, where the sandbox's
 * directory keys are held; the same person is the shopper who pays QR codes in the sandbox.
 */
const { owner: ANA, participant: SANDBOX_PARTICIPANT, account: ANA_ACCOUNT } = SANDBOX_SHOPPER;

type SandboxDirectoryKey = Pick<DirectoryEntry, 'key' | 'owner' | 'participant' | 'account'>;

const anasKey = (key: DirectoryEntry['key']): SandboxDirectoryKey => ({
  key,
  owner: ANA,
  participant: SANDBOX_PARTICIPANT,
  account: ANA_ACCOUNT,
});

/** The directory keys of docs/sandbox.md: a person's four keys and a business's BCODE. */
export const SANDBOX_DIRECTORY_KEYS: readonly SandboxDirectoryKey[] = [
  anasKey({ key_type: 'PHONE', key_value: '3001234567' }),
  anasKey({ key_type: 'EMAIL', key_value: 'ana.gomez@example.com' }),
  anasKey({ key_type: 'ALPHA', key_value: '@anagomez1' }),
  anasKey({ key_type: 'ID', key_value: '1020304050' }),
  {
    key: { key_type: 'BCODE', key_value: '0012345678' },
    owner: {
      identification_type: 'NIT',
      identification_number: '900555111',
      type: 'BUSINESS',
      business_name: 'Panadería El Trigal SAS',
    },
    participant: SANDBOX_PARTICIPANT,
    account: { account_number: '5005006007', account_type: 'CHECKING' },
  },
];

export async function seedSandbox(
  sponsorBank: SponsorBankStore,
  directory: Pick<DirectoryStore, 'insertSandbox'>,
  now: string,
): Promise<void> {
  // Approved for every sandbox client, written as the bank writes (docs/sandbox.md).
  await approveSponsorBankMerchant(
    sponsorBank,
    { ...SANDBOX_MERCHANT, accounts: [...SANDBOX_MERCHANT.accounts] },
    now,
    EVERY_PLATFORM,
    'bank',
  );
  // insertSandbox leaves a taken value alone, which makes the seed idempotent.
  for (const entry of SANDBOX_DIRECTORY_KEYS) {
    // The seed's owners are people and businesses at other participants: no merchant NIT to check.
    await directory.insertSandbox(
      { ...entry, source: 'SANDBOX', status: 'ACTIVE', created_at: now, updated_at: now },
      [],
    );
  }
}
