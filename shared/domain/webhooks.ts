/**
 * Webhooks of a client (docs/webhooks.md): where its events are sent, which ones, and the secret they
 * are signed with. The secret is answered twice only: when the webhook is created and when it is
 * rotated; every other answer, and every log line, goes without it.
 */
import { randomBytes } from 'node:crypto';
import type {
  CreateWebhookRequest,
  DeliveryMode,
  UpdateWebhookRequest,
  WebhookDisabledReason,
  WebhookEventType,
  WebhookListQuery,
} from '../schemas/webhooks';
import { newRecord, type Clock, type NewRecords } from './clock';
import { AppError } from './errors';
import { listOf, type RecordReader } from './lists';
import { ownReader, publicGetter } from './ownership';
import { checkWebhookUrl, type HostResolver, type WebhookUrlPolicy } from './webhook-urls';

/** A signing secret; `expires_at` on a previous one, kept after a rotation until then. */
export interface WebhookSecret {
  readonly secret: string;
  readonly expires_at?: string;
}

/**
 * Signing secrets as stored: sealed under the stage's key, bound to their tenant and owner, so that
 * only a function given the key's decrypt right opens them (shared/data/secret-sealing.ts).
 */
export type SealedSecrets = string;

/** Whom sealed secrets belong to: bound to the envelope, so it opens for them alone. */
export interface SecretOwner {
  readonly tenant: string;
  /** The record the secrets sign for: a webhook's id, `inbound-approval`, a connector's id. */
  readonly owner: string;
}

/** Seals a record's secrets for storage and opens them where they sign or rotate. */
export interface SecretSealer {
  seal(secrets: readonly WebhookSecret[], owner: SecretOwner): Promise<SealedSecrets>;
  /** Fails when the envelope was sealed for another owner or tampered with. */
  open(sealed: SealedSecrets, owner: SecretOwner): Promise<WebhookSecret[]>;
}

export interface StoredWebhook {
  readonly id: string;
  readonly tenant: string;
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  readonly delivery_mode: DeliveryMode;
  readonly enabled: boolean;
  readonly description?: string;
  /** Sealed: the current secret first, then previous ones until their expiry. */
  readonly secrets: SealedSecrets;
  /**
   * The first failed attempt of a run of failed attempts, none succeeding since (shared/domain/
   * webhook-health.ts): absent while deliveries succeed.
   */
  readonly failing_since?: string;
  /** Set when the API disabled the webhook (its deliveries failed for days). */
  readonly disabled_reason?: WebhookDisabledReason;
  readonly created_at: string;
  readonly updated_at: string;
}

/** The webhook the routes answer: no secret, ever, except `WebhookWithSecret`'s. */
export interface PublicWebhook {
  readonly id: string;
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  readonly delivery_mode: DeliveryMode;
  readonly enabled: boolean;
  readonly description?: string;
  readonly failing_since?: string;
  readonly disabled_reason?: WebhookDisabledReason;
  readonly created_at: string;
  readonly updated_at: string;
}

/** The answer of create and rotate-secret: the only ones that show the (new) current secret. */
export interface WebhookWithSecret extends PublicWebhook {
  readonly secret: string;
}

/** The fields a PATCH or a rotation changes. */
export type WebhookChanges = Partial<
  Pick<StoredWebhook, 'url' | 'events' | 'delivery_mode' | 'enabled' | 'description' | 'secrets'>
> & {
  /** Forgets the run of failed deliveries and why the API disabled it: a new start. */
  readonly clearFailures?: true;
};

/** No list filter beyond the shared conventions. */
export type WebhookListFilters = Record<string, never>;

/** A client's webhooks at most (docs/webhooks.md): each one is called for every event it subscribes to. */
export const MAX_WEBHOOKS = 20;

export interface WebhookStore extends RecordReader<StoredWebhook, WebhookListFilters> {
  /** Inserts the webhook unless its tenant has `limit` already (`limit_reached`), atomically. */
  insert(webhook: StoredWebhook, limit: number): Promise<'inserted' | 'limit_reached'>;
  /**
   * Applies `changes` and sets updated_at to `now`, only while the webhook is as it was read (same
   * updated_at): the webhook as stored afterwards, or undefined when it changed or went meanwhile.
   */
  update(seen: StoredWebhook, changes: WebhookChanges, now: string): Promise<StoredWebhook | undefined>;
  /** Deletes the webhook (out of its lists too); false when it was already gone. */
  delete(webhook: StoredWebhook): Promise<boolean>;
  /** Every webhook of the tenant (the dispatcher picks those an event goes to). */
  webhooksOf(tenant: string): Promise<readonly StoredWebhook[]>;
}

export interface SecretGenerator {
  newSecret(): string;
}

/** `whsec_` and the base64 of 24 random bytes (Standard Webhooks: the signing key is the base64 part). */
export const randomWebhookSecrets: SecretGenerator = {
  newSecret: () => `whsec_${randomBytes(24).toString('base64')}`,
};

/** How long a previous secret still signs after a rotation, so receivers can switch without a gap. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * The most previous secrets kept (rotations within 24 hours): every one of them signs each delivery,
 * so their number is bounded; past it the oldest goes before its expiry.
 */
export const MAX_PREVIOUS_SECRETS = 4;

/** Where webhook URLs are checked: the stage's policy and the host resolver. */
export interface WebhookUrlDeps {
  readonly urlPolicy: WebhookUrlPolicy;
  readonly resolver: HostResolver;
}

export function publicWebhook(webhook: StoredWebhook): PublicWebhook {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    delivery_mode: webhook.delivery_mode,
    enabled: webhook.enabled,
    ...(webhook.description === undefined ? {} : { description: webhook.description }),
    ...(webhook.failing_since === undefined ? {} : { failing_since: webhook.failing_since }),
    ...(webhook.disabled_reason === undefined ? {} : { disabled_reason: webhook.disabled_reason }),
    created_at: webhook.created_at,
    updated_at: webhook.updated_at,
  };
}

/** The answer of create and rotate: the webhook and the secret just made (never read back from the store). */
const withSecret = (webhook: StoredWebhook, secret: string): WebhookWithSecret => ({
  ...publicWebhook(webhook),
  secret,
});

/** Whose a webhook's secrets are: the envelope opens for this tenant and this webhook only. */
export const webhookSecretOwner = (webhook: Pick<StoredWebhook, 'tenant' | 'id'>): SecretOwner => ({
  tenant: webhook.tenant,
  owner: webhook.id,
});

/** The secrets that sign a delivery at `now`: the current one and every previous one not yet expired. */
export function signingSecrets(secrets: readonly WebhookSecret[], now: string): string[] {
  return secrets.filter((s) => s.expires_at === undefined || s.expires_at > now).map((s) => s.secret);
}

/**
 * The secrets after a rotation at `now`: the new one, the current one until now + 24 h, and the
 * previous ones not yet expired (the most recent MAX_PREVIOUS_SECRETS of them); expired ones go.
 */
export function rotatedSecrets(secrets: readonly WebhookSecret[], fresh: string, now: string): WebhookSecret[] {
  const [current, ...previous] = secrets;
  const expiresAt = new Date(Date.parse(now) + PREVIOUS_SECRET_TTL_MS).toISOString();
  const kept = [
    ...(current ? [{ secret: current.secret, expires_at: expiresAt }] : []),
    ...previous.filter((s) => s.expires_at !== undefined && s.expires_at > now),
  ];
  return [{ secret: fresh }, ...kept.slice(0, MAX_PREVIOUS_SECRETS)];
}

export interface CreateWebhookDeps extends NewRecords, WebhookUrlDeps {
  readonly webhooks: Pick<WebhookStore, 'insert'>;
  readonly secrets: SecretGenerator;
  readonly sealer: Pick<SecretSealer, 'seal'>;
}

/**
 * POST /v1/webhooks: a refused URL is 400 on `url`; a client with MAX_WEBHOOKS already, 409
 * WEBHOOK_LIMIT_REACHED; the answer is the only one but rotate's with the secret.
 */
export async function createWebhook(
  deps: CreateWebhookDeps,
  tenant: string,
  request: CreateWebhookRequest,
): Promise<WebhookWithSecret> {
  await checkWebhookUrl(request.url, deps.urlPolicy, deps.resolver);
  const record = newRecord(deps, tenant);
  const secret = deps.secrets.newSecret();
  const webhook: StoredWebhook = {
    ...record,
    url: request.url,
    events: request.events,
    delivery_mode: request.delivery_mode ?? 'RETRY',
    enabled: request.enabled ?? true,
    ...(request.description === undefined ? {} : { description: request.description }),
    secrets: await deps.sealer.seal([{ secret }], webhookSecretOwner(record)),
  };
  if ((await deps.webhooks.insert(webhook, MAX_WEBHOOKS)) === 'limit_reached') {
    throw new AppError(
      'WEBHOOK_LIMIT_REACHED',
      `The client has ${MAX_WEBHOOKS} webhooks, as many as it may: delete one, or subscribe one to more events`,
      { limit: MAX_WEBHOOKS },
    );
  }
  return withSecret(webhook, secret);
}

/** Reads one of the tenant's webhooks: 404 when unknown, 403 when another client's. */
export const getOwnWebhook = ownReader<StoredWebhook>('Webhook');

/** GET /v1/webhooks/{id}. */
export const getWebhook = publicGetter(getOwnWebhook, publicWebhook);

/** GET /v1/webhooks: the tenant's webhooks, a page at a time (docs/pagination.md). */
export const listWebhooks = /* @__PURE__ */ listOf({
  name: 'webhooks',
  filters: (_query: WebhookListQuery): WebhookListFilters => ({}),
  toPublic: publicWebhook,
});

interface ChangeDeps {
  readonly webhooks: Pick<WebhookStore, 'get' | 'update'>;
  readonly clock: Clock;
}

/** Reads the tenant's webhook, applies the changes `changesOf` makes of it, answers it as stored. */
async function changeWebhook(
  deps: ChangeDeps,
  tenant: string,
  id: string,
  changesOf: (webhook: StoredWebhook, now: string) => WebhookChanges | Promise<WebhookChanges>,
): Promise<StoredWebhook> {
  const webhook = await getOwnWebhook(deps.webhooks, tenant, id);
  const now = deps.clock.now();
  const updated = await deps.webhooks.update(webhook, await changesOf(webhook, now), now);
  if (!updated) {
    throw new AppError('CONCURRENT_UPDATE', `Webhook ${webhook.id} was changed by another request: read it and retry`);
  }
  return updated;
}

export type UpdateWebhookDeps = ChangeDeps & WebhookUrlDeps;

/**
 * PATCH /v1/webhooks/{id}: any of url (checked as on create), events, delivery_mode, enabled,
 * description. Enabling it, or a URL, starts afresh: the run of failed deliveries that would disable
 * it (or did) is forgotten, so an endpoint fixed and enabled again has its whole window.
 */
export async function updateWebhook(
  deps: UpdateWebhookDeps,
  tenant: string,
  id: string,
  request: UpdateWebhookRequest,
): Promise<PublicWebhook> {
  if (request.url !== undefined) await checkWebhookUrl(request.url, deps.urlPolicy, deps.resolver);
  const fresh = request.enabled === true || request.url !== undefined;
  return publicWebhook(
    await changeWebhook(deps, tenant, id, () => ({ ...request, ...(fresh ? { clearFailures: true as const } : {}) })),
  );
}

export interface RotateWebhookSecretDeps extends ChangeDeps {
  readonly secrets: SecretGenerator;
  readonly sealer: SecretSealer;
}

/** POST /v1/webhooks/{id}/rotate-secret: a new secret, answered once; the previous one signs 24 h more. */
export async function rotateWebhookSecret(
  deps: RotateWebhookSecretDeps,
  tenant: string,
  id: string,
): Promise<WebhookWithSecret> {
  const fresh = deps.secrets.newSecret();
  const rotated = await changeWebhook(deps, tenant, id, async (webhook, now) => {
    const owner = webhookSecretOwner(webhook);
    const secrets = rotatedSecrets(await deps.sealer.open(webhook.secrets, owner), fresh, now);
    return { secrets: await deps.sealer.seal(secrets, owner) };
  });
  return withSecret(rotated, fresh);
}

/** DELETE /v1/webhooks/{id}: the webhook is gone (404 from then on); answers it as it was. */
export async function deleteWebhook(
  webhooks: Pick<WebhookStore, 'get' | 'delete'>,
  tenant: string,
  id: string,
): Promise<PublicWebhook> {
  const webhook = await getOwnWebhook(webhooks, tenant, id);
  // Gone meanwhile (a concurrent DELETE): the answer a DELETE after it gets.
  if (!(await webhooks.delete(webhook))) throw new AppError('NOT_FOUND', `Webhook ${id} does not exist`);
  return publicWebhook(webhook);
}
