/** Webhook rules (shared/domain/webhooks.ts): the secret's form, rotation, and answers without secrets. */
import {
  MAX_PREVIOUS_SECRETS,
  publicWebhook,
  randomWebhookSecrets,
  rotatedSecrets,
  signingSecrets,
  type StoredWebhook,
} from '../../shared/domain/webhooks';
import { readableSeal } from '../support/sealer';

const NOW = '2026-11-23T10:00:00.000Z';
const IN_24_HOURS = '2026-11-24T10:00:00.000Z';

test('a secret is whsec_ and the base64 of 24 random bytes, new each time', () => {
  const secret = randomWebhookSecrets.newSecret();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
  expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(24);
  expect(randomWebhookSecrets.newSecret()).not.toBe(secret);
});

describe('rotation', () => {
  test('the new secret comes first; the current one signs 24 hours more', () => {
    expect(rotatedSecrets([{ secret: 'whsec_old' }], 'whsec_new', NOW)).toEqual([
      { secret: 'whsec_new' },
      { secret: 'whsec_old', expires_at: IN_24_HOURS },
    ]);
  });

  test('rotating again keeps an unexpired previous secret and drops an expired one', () => {
    const secrets = [
      { secret: 'whsec_b' },
      { secret: 'whsec_a', expires_at: '2026-11-23T12:00:00.000Z' },
      { secret: 'whsec_0', expires_at: '2026-11-23T09:59:59.999Z' },
    ];
    expect(rotatedSecrets(secrets, 'whsec_c', NOW)).toEqual([
      { secret: 'whsec_c' },
      { secret: 'whsec_b', expires_at: IN_24_HOURS },
      { secret: 'whsec_a', expires_at: '2026-11-23T12:00:00.000Z' },
    ]);
  });

  test(`keeps at most ${MAX_PREVIOUS_SECRETS} previous secrets, the most recent`, () => {
    let secrets = rotatedSecrets([{ secret: 'whsec_0' }], 'whsec_1', NOW);
    for (let n = 2; n <= 8; n += 1) secrets = rotatedSecrets(secrets, `whsec_${n}`, NOW);
    expect(secrets.map((s) => s.secret)).toEqual(['whsec_8', 'whsec_7', 'whsec_6', 'whsec_5', 'whsec_4']);
  });

  test('the secrets that sign: the current one and the previous ones until their expiry', () => {
    const secrets = rotatedSecrets([{ secret: 'whsec_old' }], 'whsec_new', NOW);
    expect(signingSecrets(secrets, '2026-11-24T09:59:59.999Z')).toEqual(['whsec_new', 'whsec_old']);
    expect(signingSecrets(secrets, IN_24_HOURS)).toEqual(['whsec_new']);
  });
});

test('the public webhook carries no secret and no tenant', () => {
  const stored: StoredWebhook = {
    id: 'b5c1d0a4-4a52-4c4f-9d55-1f0e2f3a4b5c',
    tenant: 'client-a',
    url: 'https://hooks.example.com/breb',
    events: ['payment.settled'],
    delivery_mode: 'RETRY',
    enabled: true,
    secrets: readableSeal([{ secret: 'whsec_current' }, { secret: 'whsec_previous', expires_at: IN_24_HOURS }], {
      tenant: 'client-a',
      owner: 'b5c1d0a4-4a52-4c4f-9d55-1f0e2f3a4b5c',
    }),
    created_at: NOW,
    updated_at: NOW,
  };
  const answer = JSON.stringify(publicWebhook(stored));
  expect(answer).not.toContain('whsec_');
  expect(answer).not.toContain('client-a');
  expect(publicWebhook(stored)).not.toHaveProperty('description');
});
