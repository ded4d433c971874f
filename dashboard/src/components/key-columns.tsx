/** The columns of Bre-B keys, with the buttons that suspend or activate them: the keys page's, and a merchant's. */
import type { BrebKey } from '../api';
import { formatTime } from '../format';
import { useDashboard } from './context';
import type { Column } from './data-table';
import { ProblemMessage } from './problem';
import { Status } from './ui';
import { useAction } from './use-action';
import { t } from '../i18n';

/** What a key's button does in each status that has one. */
const CHANGES = {
  ACTIVE: { label: 'key.suspend', named: 'key.suspendKey', done: 'key.suspended', call: 'suspendKey' },
  SUSPENDED: { label: 'key.activate', named: 'key.activateKey', done: 'key.activated', call: 'activateKey' },
} as const;

function KeyAction({ brebKey, onChanged }: { readonly brebKey: BrebKey; readonly onChanged: () => void }) {
  const { api } = useDashboard();
  const action = useAction();
  if (brebKey.status === 'DELETED') return null;
  const change = CHANGES[brebKey.status];
  const name = `${brebKey.key.key_type} ${brebKey.key.key_value}`;
  const run = () => action.run(() => api[change.call](brebKey.id), t(change.done, { key: name }), onChanged);
  return (
    <>
      <button type="button" disabled={action.busy} aria-label={t(change.named, { key: name })} onClick={run}>
        {t(change.label)}
      </button>
      {action.error !== undefined && <ProblemMessage error={action.error} />}
    </>
  );
}

/**
 * The columns; `onChanged` reads the page again after a key changed. The buttons only for whoever
 * may change keys.
 */
export const keyColumns = (onChanged: () => void, mayChange: boolean): readonly Column<BrebKey>[] => [
  {
    header: t('column.key'),
    cell: (k) => (
      <>
        {k.key.key_type} <code>{k.key.key_value}</code>
      </>
    ),
  },
  { header: t('column.shownAs'), cell: (k) => k.display_name },
  { header: t('column.status'), cell: (k) => <Status value={k.status} /> },
  { header: t('column.created'), cell: (k) => formatTime(k.created_at) },
  ...(mayChange
    ? [{ header: t('column.actions'), cell: (k: BrebKey) => <KeyAction brebKey={k} onChanged={onChanged} /> }]
    : []),
];
