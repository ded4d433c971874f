/** The tenant's webhooks, a page at a time. */
import { useDashboard } from '../components/context';
import { Pager } from '../components/pager';
import { ListBody, Status } from '../components/ui';
import { usePage } from '../components/use-page';
import { linkTo } from '../router';

export function WebhooksPage() {
  const { api } = useDashboard();
  const page = usePage(api.listWebhooks, 'webhooks');
  return (
    <>
      <h1>Webhooks</h1>
      <ListBody page={page} empty="No webhooks registered.">
        {(webhooks) => (
          <table>
            <caption class="visually-hidden">Webhooks, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Receiver</th>
                <th scope="col">Events</th>
                <th scope="col">Delivery</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {webhooks.map((webhook) => (
                <tr key={webhook.id}>
                  <td>
                    <a href={linkTo('webhooks', webhook.id)}>{webhook.description ?? webhook.url}</a>
                    <div class="hint">{webhook.url}</div>
                  </td>
                  <td>{webhook.events.join(', ')}</td>
                  <td>{webhook.delivery_mode}</td>
                  <td>
                    <Status value={webhook.enabled ? 'ENABLED' : 'DISABLED'} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ListBody>
      <Pager page={page} noun="webhooks" />
    </>
  );
}
