/**
 * `npm run fake-bank`: the fake sponsor bank (tools/fake-bank.ts) as a process of its own, so that
 * production's network paths run on a laptop (docs/network.md, "Trying it locally"): its connector on
 * http://127.0.0.1:4000 (FAKE_BANK_PORT) takes our transfer orders and answers each on the API's
 * status route a second later (SETTLED; REJECTED for an amount ending in .99), and answers directory
 * lookups from the sandbox's people and businesses at other participants.
 *
 * `npm run fake-bank -- approve <platform> <nit> "<business name>" [account_number ...]` and
 * `npm run fake-bank -- revoke <platform> <nit> "<business name>"` push one decision on a merchant to
 * the API and exit. Both need NETWORK_SECRET, the same whsec_ value as the API's; API_URL defaults to
 * http://127.0.0.1:3000.
 */
import { FakeBank } from './fake-bank';

const env = process.env;
const secret = env['NETWORK_SECRET'];
if (!secret?.startsWith('whsec_')) {
  console.error(
    "NETWORK_SECRET must be the API's connector secret (a whsec_ value): start both with the same one, e.g.\n" +
      '  export NETWORK_SECRET=whsec_$(head -c 32 /dev/urandom | base64)',
  );
  process.exit(2);
}
const apiUrl = env['API_URL'] ?? 'http://127.0.0.1:3000';
const [command, platform, nit, businessName, ...accounts] = process.argv.slice(2);

if (command === 'approve' || command === 'revoke') {
  if (!platform || !nit || !businessName) {
    console.error(`usage: npm run fake-bank -- ${command} <platform> <nit> "<business name>" [account_number ...]`);
    process.exit(2);
  }
  const bank = await FakeBank.start(() => secret);
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
const bank = await FakeBank.start(() => secret, { port, answerOrders: { apiUrl, delayMs: 1_000 } });
console.log(`Fake sponsor bank connector on ${bank.url}, answering orders on ${apiUrl}
  Start the API against it (another terminal, the same NETWORK_SECRET):
    NETWORK=connector NETWORK_CONNECTOR_URL=${bank.url} NETWORK_SECRET=$NETWORK_SECRET npm start
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
