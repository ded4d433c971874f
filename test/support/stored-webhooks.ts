/** A webhook as the table stores it, for the repository tests that write one straight to their store. */
import { randomUUID } from 'node:crypto';
import type { StoredWebhook } from '../../shared/domain/webhooks';
import { readableSeal } from './sealer';

export const storedWebhookOf = (tenant: string): StoredWebhook => {
  const id = randomUUID();
  const now = new Date().toISOString();
  return {
    id,
    tenant,
    url: 'https://hooks.example.com/a',
    events: ['payment.settled'],
    delivery_mode: 'RETRY',
    enabled: true,
    // Sealed as the routes store them (shared/data/secret-sealing.ts): no clear secret in the table.
    secrets: readableSeal([{ secret: `whsec_${randomUUID()}` }], { tenant, owner: id }),
    created_at: now,
    updated_at: now,
  };
};
