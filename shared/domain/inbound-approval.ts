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
import { rotatedSecrets, type SecretGenerator, type WebhookSecret, type WebhookUrlDeps } from './webhooks';

export interface StoredApprovalSettings {
  readonly tenant: string;
  readonly callback_url: string;
  readonly enabled: boolean;
  readonly auto_approve_on_error: boolean;
  /** The current secret first, then previous ones until their expiry. */
  readonly secrets: readonly WebhookSecret[];
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

export type ApprovalSettingsChanges = Partial<
  Pick<StoredApprovalSettings, 'callback_url' | 'enabled' | 'auto_approve_on_error' | 'secrets'>
>;

export interface ApprovalSettingsStore {
  /** The client's settings (consistent: a change just made counts), or undefined before its first PUT. */
  get(tenant: string): Promise<StoredApprovalSettings | undefined>;
  /** Stores a client's first settings; false, and nothing written, when it has some already. */
  insert(settings: StoredApprovalSettings): Promise<boolean>;
  /**
   * Applies `changes` and sets updated_at to `now`, only while the settings are as they were read
   * (same updated_at): the settings as stored afterwards, or undefined when they changed meanwhile.
   */
  update(
    seen: StoredApprovalSettings,
    changes: ApprovalSettingsChanges,
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

const withSecret = (settings: StoredApprovalSettings): SettingsWithSecret => ({
  ...publicApprovalSettings(settings),
  secret: settings.secrets[0]!.secret,
});

const notSetUp = () =>
  new AppError('NOT_FOUND', 'Inbound approval is not set up: PUT /v1/settings/inbound-approval first');

/**
 * The most times a change is made again on settings another request changed between its read and its
 * write. Each round one of the racing changes is written, so this many racing requests all succeed;
 * more is a fault (409), not a client editing its settings.
 */
const MAX_CHANGE_ATTEMPTS = 25;

/**
 * Applies the changes `changesOf` makes of the client's settings as they are now, read again and
 * made again when another request changed them meanwhile (a PUT replaces whatever came before it; a
 * rotation keeps a concurrent one's secret among the previous ones). 404 before the first PUT.
 */
async function changeSettings(
  deps: { readonly settings: Pick<ApprovalSettingsStore, 'get' | 'update'>; readonly clock: Clock },
  tenant: string,
  changesOf: (current: StoredApprovalSettings, now: string) => ApprovalSettingsChanges,
): Promise<StoredApprovalSettings> {
  for (let attempt = 0; attempt < MAX_CHANGE_ATTEMPTS; attempt += 1) {
    const current = await deps.settings.get(tenant);
    if (!current) throw notSetUp();
    const now = deps.clock.now();
    const updated = await deps.settings.update(current, changesOf(current, now), now);
    if (updated) return updated;
  }
  throw new AppError(
    'CONCURRENT_UPDATE',
    'The inbound approval settings are being changed by many requests at once: retry',
  );
}

export interface PutApprovalSettingsDeps extends WebhookUrlDeps {
  readonly settings: ApprovalSettingsStore;
  readonly secrets: SecretGenerator;
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
  if (!(await deps.settings.get(tenant))) {
    const now = deps.clock.now();
    const first: StoredApprovalSettings = {
      tenant,
      ...changes,
      secrets: [{ secret: deps.secrets.newSecret() }],
      created_at: now,
      updated_at: now,
    };
    if (await deps.settings.insert(first)) return withSecret(first);
  }
  // Set up before, or by a concurrent first PUT a moment ago: replaced, its secret kept and not shown.
  return publicApprovalSettings(await changeSettings(deps, tenant, () => changes));
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
  readonly clock: Clock;
}

/** POST /v1/settings/inbound-approval/rotate-secret: a new secret, answered once; the previous one signs 24 h more. */
export async function rotateApprovalSecret(
  deps: RotateApprovalSecretDeps,
  tenant: string,
): Promise<SettingsWithSecret> {
  const fresh = deps.secrets.newSecret();
  return withSecret(
    await changeSettings(deps, tenant, (current, now) => ({ secrets: rotatedSecrets(current.secrets, fresh, now) })),
  );
}
