/** Adds a webhook: where the platform hears of its payments as they happen. */
import type { CreateWebhookRequest } from '../api';
import { useDashboard } from '../components/context';
import { FormEnd } from '../components/form-end';
import { TextField } from '../components/text-field';
import { useForm } from '../components/use-form';
import { t } from '../i18n';

type EventType = CreateWebhookRequest['events'][number];

/**
 * The events a webhook may hear of, in the order the form shows them, each said in the catalogs as
 * `event.<type>`. Keyed by the API's own type: an event the API adds fails the build until it is here.
 */
const EVENT_CHOICES: Readonly<Record<EventType, true>> = {
  'payment.inbound.received': true,
  'payment.inbound.confirmed': true,
  'payment.outbound.confirmed': true,
  'payment.settled': true,
  'payment.rejected': true,
  'payment.reversed': true,
  'qr_code.paid': true,
  'report.ready': true,
  'refund.created': true,
  'refund.settled': true,
  'refund.rejected': true,
  'customer.updated': true,
  'reconciliation.completed': true,
  'webhook.disabled': true,
  'webhook.test': true,
};
const EVENTS = Object.keys(EVENT_CHOICES) as EventType[];

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
        ...(/^https?:\/\/[^\s/]+/.test(v.url.trim()) ? {} : { 'aw-url': t('form.webhookUrlRule') }),
        ...(chosen.length ? {} : { 'aw-events': t('form.webhookEventsRule') }),
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
      t('form.webhookAdded'),
      onAdded,
    );
  };
  const eventsProblem = form.problemOf('aw-events');
  return (
    <form class="form" onSubmit={submit} noValidate aria-labelledby="add-webhook">
      <h2 id="add-webhook">{t('form.add')}</h2>
      <TextField
        id="aw-url"
        label={t('form.webhookUrl')}
        type="url"
        inputMode="url"
        placeholder="https://tienda.co/breb"
        value={values.url}
        onText={form.set('url')}
        error={form.problemOf('aw-url')}
      />
      <TextField
        id="aw-description"
        label={t('form.webhookDescription')}
        value={values.description}
        onText={form.set('description')}
        error={form.problemOf('aw-description')}
      />
      <fieldset aria-describedby={eventsProblem ? 'aw-events-error' : undefined} id="aw-events" tabIndex={-1}>
        <legend>{t('form.webhookEvents')}</legend>
        {EVENTS.map((value) => (
          <label key={value} class="check">
            <input
              type="checkbox"
              checked={chosen.includes(value)}
              onChange={(e) => toggle(value, e.currentTarget.checked)}
            />{' '}
            {t(`event.${value}`)} <code>{value}</code>
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
        {t('form.webhookRetry')}
      </label>
      <FormEnd label={t('form.addWebhook')} action={form.action} fields={API_FIELDS} />
    </form>
  );
}
