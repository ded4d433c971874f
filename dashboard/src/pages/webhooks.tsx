/** The tenant's webhooks, a page at a time. */
import type { Webhook } from '../api';
import { useDashboard, useMay } from '../components/context';
import { withMeaning } from '../codes';
import { AddWebhookForm } from '../forms/add-webhook';
import type { Column } from '../components/data-table';
import { PagedTable } from '../components/paged-table';
import { Status } from '../components/ui';
import { usePage } from '../components/use-page';
import { linkTo } from '../router';
import { t } from '../i18n';

const webhookColumns = (): readonly Column<Webhook>[] => [
  {
    header: t('column.receiver'),
    cell: (webhook) => (
      <>
        <a href={linkTo('webhooks', webhook.id)}>{webhook.description ?? webhook.url}</a>
        <div class="hint">{webhook.url}</div>
      </>
    ),
  },
  { header: t('column.events'), cell: (webhook) => webhook.events.join(', ') },
  { header: t('column.delivery'), cell: (webhook) => withMeaning('deliveryMode', webhook.delivery_mode) },
  {
    header: t('column.state'),
    cell: (webhook) => (
      <>
        <Status value={webhook.enabled ? 'ENABLED' : 'DISABLED'} />
        {webhook.disabled_reason === 'DELIVERIES_FAILED' && <div class="hint">{t('webhooks.disabledForFailures')}</div>}
      </>
    ),
  },
];

export function WebhooksPage() {
  const { api } = useDashboard();
  const may = useMay();
  const page = usePage(api.listWebhooks, 'webhooks');
  return (
    <>
      <h1>{t('webhooks.title')}</h1>
      <PagedTable page={page} noun="webhooks" columns={webhookColumns()} empty={t('webhooks.empty')} />
      {may('addWebhook') && <AddWebhookForm onAdded={page.reload} />}
    </>
  );
}
