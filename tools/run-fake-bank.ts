/**
 * `npm run fake-bank`: the fake sponsor bank (tools/fake-bank.ts) as a process of its own, so that
 * production's network paths run on a laptop (docs/network.md, "Trying it locally"): its connector on
 * http://127.0.0.1:4000 (FAKE_BANK_PORT) takes our transfer orders and answers each on the API's
 * status route a second later (SETTLED; REJECTED for an amount ending in .99), refusing an order the
 * schema the API publishes does not describe (400) and a return of a credit it never sent (422), and
 * answers directory lookups from the sandbox's people and businesses at other participants.
 *
 * `npm run fake-bank -- approve <platform> <nit> "<business name>" [account_number ...]` and
 * `npm run fake-bank -- revoke <platform> <nit> "<business name>"` push one decision on a merchant to
 * the API and exit; `npm run -s fake-bank -- keys` prints the bank's public keys, the API's
 * NETWORK_BANK_KEYS. Every run signs with the same key, kept in FAKE_BANK_KEY_FILE (by default
 * breb-fake-bank-key.json in the system's temporary folder); API_URL defaults to http://127.0.0.1:3000.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSigningKey, publicJwk, type SigningKey } from '../shared/domain/message-signatures';
import { FakeBank } from './fake-bank';

const env = process.env;
const keyFile = env['FAKE_BANK_KEY_FILE'] ?? join(tmpdir(), 'breb-fake-bank-key.json');

/** The bank's key of every run: read from its file, or made and written there (readable by its owner only). */
function bankKey(): SigningKey {
  if (existsSync(keyFile)) return JSON.parse(readFileSync(keyFile, 'utf8')) as SigningKey;
  const key = generateSigningKey('fake-bank-1');
  writeFileSync(keyFile, JSON.stringify(key), { mode: 0o600 });
  return key;
}

const signingKey = bankKey();
const bankKeys = JSON.stringify({ keys: [publicJwk(signingKey.privateKeyPem, signingKey.kid)] });
const apiUrl = env['API_URL'] ?? 'http://127.0.0.1:3000';
const [command, platform, nit, businessName, ...accounts] = process.argv.slice(2);

if (command === 'keys') {
  console.log(bankKeys);
  process.exit(0);
}

if (command === 'approve' || command === 'revoke') {
  if (!platform || !nit || !businessName) {
    console.error(`usage: npm run fake-bank -- ${command} <platform> <nit> "<business name>" [account_number ...]`);
    process.exit(2);
  }
  const bank = await FakeBank.start(() => apiUrl, { signingKey });
  const answer = await bank.decide(apiUrl, nit, {
    platform,
    business_name: businessName,
    status: command === 'approve' ? 'APPROVED' : 'REVOKED',
    accounts: accounts.map((account_number) => ({
      account_number,
      account_type: 'ORDINARY',
      opening_balance: { value: '1000000.00', currency: 'COP' },
    })),
  });
  await bank.stop();
  console.log(answer.status, JSON.stringify(answer.body, null, 2));
  process.exit(answer.status === 200 ? 0 : 1);
}

const port = Number(env['FAKE_BANK_PORT'] ?? 4000);
const bank = await FakeBank.start(() => apiUrl, { port, signingKey, answerOrders: { apiUrl, delayMs: 1_000 } });
console.log(`Fake sponsor bank connector on ${bank.url}, answering orders on ${apiUrl}
  Start the API against it (another terminal), trusting the bank's public key:
    NETWORK=connector NETWORK_CONNECTOR_URL=${bank.url} NETWORK_BANK_KEYS='${bankKeys}' npm start
  Approve a merchant for a platform:
    npm run fake-bank -- approve sandbox-client-a 901234567 "Droguería La Salud SAS" 000200300401
Press Ctrl-C to stop.`);
const stop = (): void => {
  bank.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
