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

const WEBHOOK_COLUMNS: readonly Column<Webhook>[] = [
  {
    header: 'Receiver',
    cell: (webhook) => (
      <>
        <a href={linkTo('webhooks', webhook.id)}>{webhook.description ?? webhook.url}</a>
        <div class="hint">{webhook.url}</div>
      </>
    ),
  },
  { header: 'Events', cell: (webhook) => webhook.events.join(', ') },
  { header: 'Delivery', cell: (webhook) => withMeaning('deliveryMode', webhook.delivery_mode) },
  { header: 'State', cell: (webhook) => <Status value={webhook.enabled ? 'ENABLED' : 'DISABLED'} /> },
];

export function WebhooksPage() {
  const { api } = useDashboard();
  const may = useMay();
  const page = usePage(api.listWebhooks, 'webhooks');
  return (
    <>
      <h1>Webhooks</h1>
      <PagedTable
        page={page}
        noun="webhooks"
        columns={WEBHOOK_COLUMNS}
        empty="No webhooks yet: a webhook tells your system of each payment as it happens."
      />
      {may('addWebhook') && <AddWebhookForm onAdded={page.reload} />}
    </>
  );
}
