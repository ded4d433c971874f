/** One webhook: its settings, enable or disable it, send it a test event, and its delivery log. */
import { useState } from 'preact/hooks';
import type { Webhook } from '../api';
import { newIdempotencyKey, useDashboard } from '../components/context';
import { Pager } from '../components/pager';
import { ProblemMessage } from '../components/problem';
import { Details, ListBody, Status } from '../components/ui';
import { useAction } from '../components/use-action';
import { usePage } from '../components/use-page';
import { useRecord } from '../components/use-record';
import { formatTime } from '../format';

export function WebhookPage({ id }: { readonly id: string }) {
  const { api } = useDashboard();
  const webhook = useRecord(() => api.getWebhook(id), id);
  if (webhook.error) return <ProblemMessage error={webhook.error} />;
  if (!webhook.record) return <p role="status">Loading…</p>;
  return <WebhookDetails webhook={webhook.record} reload={webhook.reload} />;
}

function WebhookDetails({ webhook, reload }: { readonly webhook: Webhook; readonly reload: () => void }) {
  const { api } = useDashboard();
  const deliveries = usePage((query) => api.listWebhookDeliveries(webhook.id, query), 'deliveries');
  const action = useAction();
  const [testKey, setTestKey] = useState(newIdempotencyKey);
  const toggle = async () => {
    const enabled = !webhook.enabled;
    if (await action.run(() => api.setWebhookEnabled(webhook.id, enabled), enabled ? 'Enabled.' : 'Disabled.'))
      reload();
  };
  const test = async () => {
    if (await action.run(() => api.sendWebhookTest(webhook.id, testKey), 'Test event sent.')) {
      setTestKey(newIdempotencyKey());
      deliveries.reload();
    }
  };
  return (
    <>
      <h1>Webhook {webhook.description ?? webhook.url}</h1>
      <Details
        rows={[
          ['Receiver', <code>{webhook.url}</code>],
          ['State', <Status value={webhook.enabled ? 'ENABLED' : 'DISABLED'} />],
          ['Events', webhook.events.join(', ')],
          ['Delivery', webhook.delivery_mode === 'RETRY' ? 'RETRY (retried with backoff)' : 'ONCE (one attempt)'],
          ['Created', formatTime(webhook.created_at)],
        ]}
      />
      <div class="actions">
        <button type="button" disabled={action.busy} onClick={toggle}>
          {webhook.enabled ? 'Disable webhook' : 'Enable webhook'}
        </button>
        <button type="button" disabled={action.busy || !webhook.enabled} onClick={test}>
          Send a test event
        </button>
      </div>
      <p role="status" class="status-line">
        {action.done}
      </p>
      {action.error !== undefined && <ProblemMessage error={action.error} />}
      <h2>Deliveries</h2>
      <ListBody page={deliveries} empty="Nothing delivered yet.">
        {(items) => (
          <table>
            <caption class="visually-hidden">Deliveries of this webhook, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col" class="number">
                  Attempts
                </th>
                <th scope="col">Last attempt</th>
              </tr>
            </thead>
            <tbody>
              {items.map((delivery) => {
                const last = delivery.attempts.at(-1);
                return (
                  <tr key={delivery.id}>
                    <td>{formatTime(delivery.created_at)}</td>
                    <td>{delivery.event_type}</td>
                    <td>
                      <Status value={delivery.status} />
                    </td>
                    <td class="number">{delivery.attempts.length}</td>
                    <td>
                      {last
                        ? `${formatTime(last.attempted_at)}: ${last.error ?? `HTTP ${last.status_code}`} (${last.duration_ms} ms)`
                        : 'Not yet'}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </ListBody>
      <Pager page={deliveries} noun="deliveries" one="delivery" />
    </>
  );
}
