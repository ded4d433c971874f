/**
 * Inbound approval settings of a client (docs/inbound-approval.md): the callback that accepts or
 * refuses each inbound payment, whether it is asked, what a payment becomes when it gives no usable
 * answer, and the secret its requests are signed with. One per client. The secret is answered only
 * when it is made (the first PUT) and when it is rotated; a previous secret signs 24 hours more, as a
 * webhook's does.
 */
import type { PutInboundApprovalRequest } from '../schemas/inbound-approval';
import type { Clock } from './clock';
import { AppError } from './errors';
import { checkWebhookUrl } from './webhook-urls';
import {
  rotatedSecrets,
  type SealedSecrets,
  type SecretGenerator,
  type SecretOwner,
  type SecretSealer,
  type WebhookUrlDeps,
} from './webhooks';

export interface StoredApprovalSettings {
  readonly tenant: string;
  readonly callback_url: string;
  readonly enabled: boolean;
  readonly auto_approve_on_error: boolean;
  /** Sealed: the current secret first, then previous ones until their expiry. */
  readonly secrets: SealedSecrets;
  readonly created_at: string;
  readonly updated_at: string;
}

/** The settings the routes answer: never the secret, except SettingsWithSecret's. */
export interface PublicApprovalSettings {
  readonly callback_url: string;
  readonly enabled: boolean;
  readonly auto_approve_on_error: boolean;
  readonly created_at: string;
  readonly updated_at: string;
}

export interface SettingsWithSecret extends PublicApprovalSettings {
  readonly secret: string;
}

/** What a PUT sets. */
export type ReplacedSettings = Pick<StoredApprovalSettings, 'callback_url' | 'enabled' | 'auto_approve_on_error'>;

export interface ApprovalSettingsStore {
  /** The client's settings (consistent: a change just made counts), or undefined before its first PUT. */
  get(tenant: string): Promise<StoredApprovalSettings | undefined>;
  /** Stores a client's first settings; false, and nothing written, when it has some already. */
  insert(settings: StoredApprovalSettings): Promise<boolean>;
  /**
   * Sets the fields of a PUT and updated_at = `now` on the client's settings, whatever changed them
   * before (a PUT replaces): the settings as stored afterwards, or undefined before the first PUT.
   */
  replace(tenant: string, changes: ReplacedSettings, now: string): Promise<StoredApprovalSettings | undefined>;
  /**
   * Applies `changes` and sets updated_at to `now`, only while the settings are as they were read
   * (same version): the settings as stored afterwards, or undefined when they changed meanwhile.
   */
  update(
    seen: StoredApprovalSettings,
    changes: Pick<StoredApprovalSettings, 'secrets'>,
    now: string,
  ): Promise<StoredApprovalSettings | undefined>;
}

export function publicApprovalSettings(settings: StoredApprovalSettings): PublicApprovalSettings {
  return {
    callback_url: settings.callback_url,
    enabled: settings.enabled,
    auto_approve_on_error: settings.auto_approve_on_error,
    created_at: settings.created_at,
    updated_at: settings.updated_at,
  };
}

/** The answer of the first PUT and of a rotation: the settings and the secret just made. */
const withSecret = (settings: StoredApprovalSettings, secret: string): SettingsWithSecret => ({
  ...publicApprovalSettings(settings),
  secret,
});

/** Whose approval secrets are: the envelope opens for this tenant's settings only. */
export const approvalSecretOwner = (tenant: string): SecretOwner => ({ tenant, owner: 'inbound-approval' });

const notSetUp = () =>
  new AppError('NOT_FOUND', 'Inbound approval is not set up: PUT /v1/settings/inbound-approval first');

/**
 * The most times a rotation is made again on settings another request changed between its read and
 * its write. Each round one of the racing changes is written, so this many racing rotations all
 * succeed; more is a fault (409), not a client rotating its secret.
 */
const MAX_ROTATION_ATTEMPTS = 25;

export interface PutApprovalSettingsDeps extends WebhookUrlDeps {
  readonly settings: Pick<ApprovalSettingsStore, 'replace' | 'insert'>;
  readonly secrets: SecretGenerator;
  readonly sealer: Pick<SecretSealer, 'seal'>;
  readonly clock: Clock;
}

/**
 * PUT /v1/settings/inbound-approval: the client's settings, replaced. The first PUT makes the secret
 * and is the only one to answer it (a later PUT keeps it; rotate-secret makes a new one). A callback
 * URL is checked as a webhook's (400 on callback_url).
 */
export async function putApprovalSettings(
  deps: PutApprovalSettingsDeps,
  tenant: string,
  request: PutInboundApprovalRequest,
): Promise<PublicApprovalSettings | SettingsWithSecret> {
  await checkWebhookUrl(request.callback_url, deps.urlPolicy, deps.resolver, 'callback_url');
  const changes = {
    callback_url: request.callback_url,
    enabled: request.enabled,
    auto_approve_on_error: request.auto_approve_on_error ?? false,
  };
  // One write where the settings exist: a PUT replaces them, whatever another request changed.
  const replaced = await deps.settings.replace(tenant, changes, deps.clock.now());
  if (replaced) return publicApprovalSettings(replaced);
  const now = deps.clock.now();
  const secret = deps.secrets.newSecret();
  const first: StoredApprovalSettings = {
    tenant,
    ...changes,
    secrets: await deps.sealer.seal([{ secret }], approvalSecretOwner(tenant)),
    created_at: now,
    updated_at: now,
  };
  if (await deps.settings.insert(first)) return withSecret(first, secret);
  // A concurrent first PUT stored the settings a moment ago: replaced, its secret kept and not shown.
  const afterFirst = await deps.settings.replace(tenant, changes, deps.clock.now());
  if (!afterFirst) throw new Error(`The inbound approval settings of ${tenant} went while being replaced`);
  return publicApprovalSettings(afterFirst);
}

/** GET /v1/settings/inbound-approval: 404 before the first PUT. */
export async function getApprovalSettings(
  settings: Pick<ApprovalSettingsStore, 'get'>,
  tenant: string,
): Promise<PublicApprovalSettings> {
  const current = await settings.get(tenant);
  if (!current) throw notSetUp();
  return publicApprovalSettings(current);
}

export interface RotateApprovalSecretDeps {
  readonly settings: Pick<ApprovalSettingsStore, 'get' | 'update'>;
  readonly secrets: SecretGenerator;
  readonly sealer: SecretSealer;
  readonly clock: Clock;
}

/** POST /v1/settings/inbound-approval/rotate-secret: a new secret, answered once; the previous one signs 24 h more. */
export async function rotateApprovalSecret(
  deps: RotateApprovalSecretDeps,
  tenant: string,
): Promise<SettingsWithSecret> {
  const fresh = deps.secrets.newSecret();
  // Made again on what a concurrent rotation or PUT wrote: a concurrent rotation's secret stays among
  // the previous ones, a PUT's fields stay as it set them.
  for (let attempt = 0; attempt < MAX_ROTATION_ATTEMPTS; attempt += 1) {
    const current = await deps.settings.get(tenant);
    if (!current) throw notSetUp();
    const now = deps.clock.now();
    const owner = approvalSecretOwner(tenant);
    const secrets = rotatedSecrets(await deps.sealer.open(current.secrets, owner), fresh, now);
    const rotated = await deps.settings.update(current, { secrets: await deps.sealer.seal(secrets, owner) }, now);
    if (rotated) return withSecret(rotated, fresh);
  }
  throw new AppError(
    'CONCURRENT_UPDATE',
    'The inbound approval secret is being rotated by many requests at once: retry',
  );
}
