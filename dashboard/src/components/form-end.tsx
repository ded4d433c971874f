/** The end of a form that sends a request: its button (off while the request runs), what became of it, the API's refusal. */
import { ProblemMessage } from './problem';
import type { ActionState } from './use-action';

export function FormEnd({
  label,
  action,
  fields,
}: {
  readonly label: string;
  readonly action: ActionState;
  /** The API's fields, by the id of the form's field that holds them. */
  readonly fields: Readonly<Record<string, string>>;
}) {
  return (
    <>
      <div class="actions">
        <button type="submit" disabled={action.busy}>
          {label}
        </button>
      </div>
      <p role="status" class="status-line">
        {action.done}
      </p>
      {action.error !== undefined && <ProblemMessage error={action.error} fields={fields} />}
    </>
  );
}
