/** Who changed what of the tenant's, and who downloaded its reports, newest first (GET /v1/audit-events). */
import type { AuditEvent } from '../api';
import { useDashboard } from '../components/context';
import type { Column } from '../components/data-table';
import { PagedTable } from '../components/paged-table';
import { usePage } from '../components/use-page';
import { formatTime } from '../format';
import { t } from '../i18n';

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

const activityColumns = (): readonly Column<AuditEvent>[] => [
  { header: t('column.when'), cell: (event) => formatTime(event.created_at) },
  { header: t('column.who'), cell: (event) => event.actor },
  {
    header: t('column.what'),
    // The action in the reader's language, with the API's own name of it (what the list filters by).
    cell: (event) => (
      <>
        {t(`audit.${event.action}`)}
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
  const page = usePage(api.listAuditEvents, 'audit_events');
  return (
    <>
      <h1>{t('activity.title')}</h1>
      <PagedTable page={page} noun="changes" columns={activityColumns()} />
    </>
  );
}
