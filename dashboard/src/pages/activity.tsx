/**
 * Who changed what of the tenant's, and who downloaded its reports, newest first (GET
 * /v1/audit-events), filtered by kind of resource and by who made the change; the money a person
 * moved said as a sentence.
 */
import type { ComponentChildren } from 'preact';
import type { AuditEvent } from '../api';
import { useDashboard } from '../components/context';
import type { Column } from '../components/data-table';
import { Filters, queryOf, useFilters, type FilterSpec } from '../components/filters';
import { PagedTable } from '../components/paged-table';
import { usePage } from '../components/use-page';
import { formatCop, formatTime } from '../format';
import { amountOfCents } from '../money';
import { linkTo } from '../router';
import { t, type MessageKey } from '../i18n';

/** Every kind of resource the trail records, with its words: a kind the API gains must be named here. */
const KINDS: Readonly<Record<AuditEvent['resource_type'], MessageKey>> = {
  WEBHOOK: 'activity.kind.WEBHOOK',
  INBOUND_APPROVAL: 'activity.kind.INBOUND_APPROVAL',
  KEY: 'activity.kind.KEY',
  PAYMENT: 'activity.kind.PAYMENT',
  REFUND: 'activity.kind.REFUND',
  RECIPIENT: 'activity.kind.RECIPIENT',
  CUSTOMER: 'activity.kind.CUSTOMER',
  ACCOUNT: 'activity.kind.ACCOUNT',
  QR_CODE: 'activity.kind.QR_CODE',
  REPORT: 'activity.kind.REPORT',
  PERSONAL_DATA: 'activity.kind.PERSONAL_DATA',
};

/** The fields a change set, as `name: before → after`; a creation or a deletion shows one side. */
function changedFields(event: AuditEvent): string {
  const before = (event.before ?? {}) as Record<string, unknown>;
  const after = (event.after ?? {}) as Record<string, unknown>;
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const shown = (value: unknown): string => (value === undefined ? '—' : JSON.stringify(value));
  return names
    .filter((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]))
    .map((name) => `${name}: ${shown(before[name])} → ${shown(after[name])}`)
    .join('; ');
}

/** An amount the trail keeps in cents, as Colombia writes it. */
const pesos = (cents: unknown): string => formatCop(amountOfCents(BigInt(Number(cents))));

/**
 * The change as a sentence when the trail holds what it needs (who, how much, of what): the money
 * moved by a person, and an operator's answer to a transfer in review. Undefined for the others, said
 * by their action's name alone.
 */
function sentenceOf(event: AuditEvent): ComponentChildren {
  const after = (event.after ?? {}) as Record<string, unknown>;
  const who = event.actor;
  switch (event.action) {
    case 'refund.created': {
      const paymentId = String(after['payment_id']);
      return (
        <>
          {t('activity.refunded', { who, amount: pesos(after['amount_cents']) })}{' '}
          <a href={linkTo('payments', paymentId)}>{paymentId.slice(0, 8)}</a>
        </>
      );
    }
    case 'payment.created':
      return t('activity.paid', { who, amount: pesos(after['amount_cents']) });
    case 'payment.answered':
    case 'refund.answered':
      return t('activity.answered', { who, status: String(after['status'] ?? '') });
    default:
      return undefined;
  }
}

const activityColumns = (): readonly Column<AuditEvent>[] => [
  { header: t('column.when'), cell: (event) => formatTime(event.created_at) },
  { header: t('column.who'), cell: (event) => event.actor },
  {
    header: t('column.what'),
    // The action in the reader's language, with the API's own name of it (what the list filters by).
    cell: (event) => (
      <>
        {sentenceOf(event) ?? t(`audit.${event.action}`)}
        <div class="hint">
          <code>{event.action}</code>
        </div>
      </>
    ),
  },
  {
    header: t('column.changes'),
    cell: (event) => (
      <>
        {changedFields(event)}
        <div class="hint">
          {event.resource_type} {event.resource_id}
        </div>
      </>
    ),
  },
];

export function ActivityPage() {
  const { api } = useDashboard();
  const specs: FilterSpec[] = [
    {
      name: 'resource_type',
      label: t('filter.kind'),
      choices: Object.entries(KINDS).map(([value, key]) => ({ value, label: t(key) })),
    },
    // A person's username (their `sub`), a machine client's id: the actor as the list shows it.
    { name: 'actor', label: t('filter.actor'), kind: 'text' },
  ];
  const [filters, setFilter] = useFilters(specs);
  const page = usePage(api.listAuditEvents, 'audit_events', queryOf(specs, filters));
  return (
    <>
      <h1>{t('activity.title')}</h1>
      <Filters label={t('filter.activity')} specs={specs} values={filters} onChange={setFilter} />
      <PagedTable page={page} noun="changes" columns={activityColumns()} />
    </>
  );
}
