/** Adds a webhook: where the platform hears of its payments as they happen. */
import type { CreateWebhookRequest } from '../api';
import { useDashboard } from '../components/context';
import { ProblemMessage } from '../components/problem';
import { TextField } from '../components/text-field';
import { useForm } from '../components/use-form';

type EventType = CreateWebhookRequest['events'][number];

const EVENTS: readonly { value: EventType; label: string }[] = [
  { value: 'payment.inbound.received', label: 'A payment was received' },
  { value: 'payment.inbound.confirmed', label: 'A received payment was confirmed' },
  { value: 'payment.outbound.confirmed', label: 'A payment sent was confirmed' },
  { value: 'payment.settled', label: 'A payment settled' },
  { value: 'payment.rejected', label: 'A payment was rejected' },
  { value: 'qr_code.paid', label: 'A dynamic QR code was paid' },
  { value: 'refund.created', label: 'A refund was made' },
  { value: 'refund.settled', label: 'A refund settled' },
  { value: 'refund.rejected', label: 'A refund was rejected' },
  { value: 'webhook.test', label: 'Test events' },
];

const API_FIELDS = { url: 'aw-url', events: 'aw-events', description: 'aw-description' };

export function AddWebhookForm({ onAdded }: { readonly onAdded: () => void }) {
  const { api } = useDashboard();
  const form = useForm(
    { url: '', description: '', events: 'payment.inbound.received payment.settled', retry: 'RETRY' },
    API_FIELDS,
  );
  const { values } = form;
  const chosen = values.events.split(' ').filter(Boolean) as EventType[];
  const toggle = (event: EventType, on: boolean) =>
    form.set('events')((on ? [...chosen, event] : chosen.filter((e) => e !== event)).join(' '));
  const submit = (event: Event) => {
    event.preventDefault();
    form.submit(
      (v) => ({
        // The API tells the rest (https only outside the local stage, no private address).
        ...(/^https?:\/\/[^\s/]+/.test(v.url.trim())
          ? {}
          : { 'aw-url': 'An https:// address, e.g. https://tienda.co/breb.' }),
        ...(chosen.length ? {} : { 'aw-events': 'Choose at least one event.' }),
      }),
      (v, key) =>
        api.createWebhook(
          {
            url: v.url.trim(),
            events: chosen,
            delivery_mode: v.retry === 'RETRY' ? 'RETRY' : 'ONCE',
            ...(v.description.trim() ? { description: v.description.trim() } : {}),
          },
          key,
        ),
      'Webhook added.',
      onAdded,
    );
  };
  const eventsProblem = form.problemOf('aw-events');
  return (
    <form class="form" onSubmit={submit} noValidate aria-labelledby="add-webhook">
      <h2 id="add-webhook">Add a webhook</h2>
      <TextField
        id="aw-url"
        label="Receiver's address"
        type="url"
        inputMode="url"
        placeholder="https://tienda.co/breb"
        value={values.url}
        onText={form.set('url')}
        error={form.problemOf('aw-url')}
      />
      <TextField
        id="aw-description"
        label="Description (optional)"
        value={values.description}
        onText={form.set('description')}
        error={form.problemOf('aw-description')}
      />
      <fieldset aria-describedby={eventsProblem ? 'aw-events-error' : undefined} id="aw-events" tabIndex={-1}>
        <legend>Events</legend>
        {EVENTS.map(({ value, label }) => (
          <label key={value} class="check">
            <input
              type="checkbox"
              checked={chosen.includes(value)}
              onChange={(e) => toggle(value, e.currentTarget.checked)}
            />{' '}
            {label} <code>{value}</code>
          </label>
        ))}
        {eventsProblem && (
          <p id="aw-events-error" class="field-error">
            {eventsProblem}
          </p>
        )}
      </fieldset>
      <label class="check">
        <input
          type="checkbox"
          checked={values.retry === 'RETRY'}
          onChange={(e) => form.set('retry')(e.currentTarget.checked ? 'RETRY' : 'ONCE')}
        />{' '}
        Retry a failed delivery with backoff
      </label>
      <div class="actions">
        <button type="submit" disabled={form.action.busy}>
          Add webhook
        </button>
      </div>
      <p role="status" class="status-line">
        {form.action.done}
      </p>
      {form.action.error !== undefined && <ProblemMessage error={form.action.error} fields={API_FIELDS} />}
    </form>
  );
}
