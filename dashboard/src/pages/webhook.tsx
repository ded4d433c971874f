/**
 * One webhook: its settings, a line on its failing deliveries (or why the service disabled it), enable
 * or disable it, send it a test event, and its delivery log.
 */
import { useState } from 'preact/hooks';
import type { Webhook, WebhookDelivery } from '../api';
import { newIdempotencyKey, useDashboard, useMay } from '../components/context';
import { withMeaning } from '../codes';
import { PagedTable } from '../components/paged-table';
import { ProblemMessage } from '../components/problem';
import { Details, Loaded, Status } from '../components/ui';
import { useAction } from '../components/use-action';
import { usePage } from '../components/use-page';
import { useRecord } from '../components/use-record';
import { formatTime } from '../format';
import { t } from '../i18n';

export function WebhookPage({ id }: { readonly id: string }) {
  const { api } = useDashboard();
  const webhook = useRecord(() => api.getWebhook(id), id);
  return <Loaded state={webhook}>{(record) => <WebhookDetails webhook={record} reload={webhook.reload} />}</Loaded>;
}

/** How the last attempt of a delivery ended, when it had one. */
function lastAttempt(delivery: WebhookDelivery): string {
  const last = delivery.attempts.at(-1);
  if (!last) return t('webhook.notYet');
  return `${formatTime(last.attempted_at)}: ${last.error ?? `HTTP ${last.status_code}`} (${last.duration_ms} ms)`;
}

/**
 * What the webhook's failed deliveries mean: disabled by the service after 3 days of them (and what
 * to do), or failing since when, before that happens (docs/webhooks.md, "Disabled webhooks").
 */
function DeliveryHealth({ webhook }: { readonly webhook: Webhook }) {
  const since = webhook.failing_since === undefined ? '' : formatTime(webhook.failing_since);
  if (webhook.disabled_reason === 'DELIVERIES_FAILED') {
    return <p class="problem">{t('webhook.disabledForFailures', { since })}</p>;
  }
  if (webhook.enabled && webhook.failing_since !== undefined) {
    return <p class="hint">{t('webhook.failingSince', { since })}</p>;
  }
  return null;
}

function WebhookDetails({ webhook, reload }: { readonly webhook: Webhook; readonly reload: () => void }) {
  const { api } = useDashboard();
  const may = useMay();
  // A delivery under way changes on its own (attempts, retries): the list follows it while the page is open.
  const deliveries = usePage(
    (query) => api.listWebhookDeliveries(webhook.id, query),
    'deliveries',
    {},
    {
      changing: (items) => items.some((delivery) => delivery.status === 'PENDING'),
    },
  );
  const action = useAction();
  const [testKey, setTestKey] = useState(newIdempotencyKey);
  const toggle = () => {
    const enabled = !webhook.enabled;
    action.run(
      () => api.setWebhookEnabled(webhook.id, enabled),
      enabled ? t('webhook.enabled') : t('webhook.disabled'),
      reload,
    );
  };
  const test = () =>
    action.run(
      () => api.sendWebhookTest(webhook.id, testKey),
      t('webhook.testSent'),
      () => {
        setTestKey(newIdempotencyKey());
        deliveries.reload();
      },
    );
  return (
    <>
      <h1>{t('webhook.title', { name: webhook.description ?? webhook.url })}</h1>
      <Details
        rows={[
          [t('column.receiver'), <code>{webhook.url}</code>],
          [t('column.state'), <Status value={webhook.enabled ? 'ENABLED' : 'DISABLED'} />],
          [t('column.events'), webhook.events.join(', ')],
          [t('column.delivery'), withMeaning('deliveryMode', webhook.delivery_mode)],
          [t('column.created'), formatTime(webhook.created_at)],
        ]}
      />
      <DeliveryHealth webhook={webhook} />
      {may('changeWebhook') && (
        <div class="actions">
          <button type="button" disabled={action.busy} onClick={toggle}>
            {webhook.enabled ? t('webhook.disable') : t('webhook.enable')}
          </button>
          <button type="button" disabled={action.busy || !webhook.enabled} onClick={test}>
            {t('webhook.test')}
          </button>
        </div>
      )}
      <p role="status" class="status-line">
        {action.done}
      </p>
      {action.error !== undefined && <ProblemMessage error={action.error} />}
      <h2>{t('webhook.deliveries')}</h2>
      <PagedTable
        page={deliveries}
        noun="deliveries"
        columns={[
          { header: t('column.created'), cell: (delivery) => formatTime(delivery.created_at) },
          { header: t('column.event'), cell: (delivery) => delivery.event_type },
          { header: t('column.status'), cell: (delivery) => <Status value={delivery.status} /> },
          { header: t('column.attempts'), numeric: true, cell: (delivery) => delivery.attempts.length },
          { header: t('column.lastAttempt'), cell: lastAttempt },
        ]}
      />
    </>
  );
}
