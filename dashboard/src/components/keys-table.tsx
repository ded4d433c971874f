/** Bre-B keys with the buttons that suspend or activate them: the keys page's, and a merchant's. */
import type { BrebKey } from '../api';
import { formatTime } from '../format';
import { useDashboard } from './context';
import { ProblemMessage } from './problem';
import { Status } from './ui';
import { useAction } from './use-action';

function KeyActions({ brebKey, onChanged }: { readonly brebKey: BrebKey; readonly onChanged: () => void }) {
  const { api } = useDashboard();
  const action = useAction();
  const label = `${brebKey.key.key_type} ${brebKey.key.key_value}`;
  const change = async (to: 'suspend' | 'activate') => {
    const work = to === 'suspend' ? () => api.suspendKey(brebKey.id) : () => api.activateKey(brebKey.id);
    if (await action.run(work, to === 'suspend' ? `Key ${label} suspended.` : `Key ${label} activated.`)) onChanged();
  };
  return (
    <>
      {brebKey.status === 'ACTIVE' && (
        <button
          type="button"
          disabled={action.busy}
          aria-label={`Suspend key ${label}`}
          onClick={() => change('suspend')}
        >
          Suspend
        </button>
      )}
      {brebKey.status === 'SUSPENDED' && (
        <button
          type="button"
          disabled={action.busy}
          aria-label={`Activate key ${label}`}
          onClick={() => change('activate')}
        >
          Activate
        </button>
      )}
      {action.error !== undefined && <ProblemMessage error={action.error} />}
    </>
  );
}

export function KeysTable(props: {
  readonly keys: readonly BrebKey[];
  readonly caption: string;
  readonly onChanged: () => void;
}) {
  return (
    <table>
      <caption class="visually-hidden">{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Key</th>
          <th scope="col">Shown as</th>
          <th scope="col">Status</th>
          <th scope="col">Created</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {props.keys.map((brebKey) => (
          <tr key={brebKey.id}>
            <td>
              {brebKey.key.key_type} <code>{brebKey.key.key_value}</code>
            </td>
            <td>{brebKey.display_name}</td>
            <td>
              <Status value={brebKey.status} />
            </td>
            <td>{formatTime(brebKey.created_at)}</td>
            <td class="row-actions">
              <KeyActions brebKey={brebKey} onChanged={props.onChanged} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
