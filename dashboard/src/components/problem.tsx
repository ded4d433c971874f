/**
 * What the page says when something fails: in words for a person first (what happened, what to do),
 * the API's own status, code and detail behind a "Details" toggle for whoever reports it. A form
 * shows the API's field errors beside its fields (fieldProblems); what no field of the form holds
 * is listed here, in words.
 */
import { ApiProblem } from '../api';
import { useDashboard } from './context';

/** The sentence a person reads. */
function explain(problem: ApiProblem): string {
  if (problem.status === 0) return 'The API cannot be reached: check the connection, then retry.';
  if (problem.status === 403 && problem.code === 'INSUFFICIENT_SCOPE') {
    return 'Your sign-in may look at this but not change it. Ask an administrator of your platform if you need to.';
  }
  if (problem.status === 403) return 'This belongs to another platform: you cannot see it.';
  if (problem.status === 404) return 'Not found: it may have been removed, or the link is wrong.';
  if (problem.status === 409) return 'Not possible now: it changed since the page showed it. Reload and look again.';
  if (problem.status === 429) return 'Too many requests at once: wait a moment and retry.';
  if (problem.status === 400 || problem.status === 422) return 'Some of this needs correcting.';
  if (problem.status >= 500) return 'The API could not do this just now: retry in a moment.';
  return 'The API could not do this.';
}

/** An API field error in words: known formats said plainly, the rest as the API words it. */
export function plainFieldMessage(message: string): string {
  if (/COP amount|amount with two decimals/.test(message)) return 'Enter an amount in pesos, e.g. 119.000,00.';
  if (/must not be blank|is required/.test(message)) return 'This is needed.';
  return `${message.charAt(0).toUpperCase()}${message.slice(1)}${/[.!]$/.test(message) ? '' : '.'}`;
}

/** The API's field errors for the fields a form has, by the form's field id; `fields` maps API field to id. */
export function fieldProblems(error: unknown, fields: Readonly<Record<string, string>>): Record<string, string> {
  if (!(error instanceof ApiProblem)) return {};
  const byId: Record<string, string> = {};
  for (const item of error.errors) {
    const id = fields[item.field];
    if (id && !byId[id]) byId[id] = plainFieldMessage(item.message);
  }
  return byId;
}

export function ProblemMessage({
  error,
  onRetry,
  fields = {},
  names = {},
}: {
  readonly error: unknown;
  /** Offered when trying again may help (a network failure, a busy API). */
  readonly onRetry?: () => void;
  /** The API's fields a form shows beside its own fields: not repeated here. */
  readonly fields?: Readonly<Record<string, string>>;
  /** What a person calls the API's fields the form does not show, for the list below. */
  readonly names?: Readonly<Record<string, string>>;
}) {
  const { signIn } = useDashboard();
  if (!(error instanceof ApiProblem)) {
    return (
      <div class="problem" role="alert">
        <p>Something went wrong in the page: {String(error)}</p>
      </div>
    );
  }
  if (error.status === 401) {
    return (
      <div class="problem" role="alert">
        <p>Your session has ended: sign in again to go on.</p>
        <button type="button" onClick={signIn}>
          Sign in again
        </button>
      </div>
    );
  }
  const others = error.errors.filter((item) => !fields[item.field]);
  const retryable = error.status === 0 || error.status === 429 || error.status >= 500;
  return (
    <div class="problem" role="alert">
      <p class="problem-summary">
        <strong>{explain(error)}</strong>
      </p>
      {others.length > 0 && (
        <ul>
          {others.map((item) => (
            <li key={item.field}>
              {names[item.field] ? `${names[item.field]}: ` : ''}
              {plainFieldMessage(item.message)}
            </li>
          ))}
        </ul>
      )}
      {retryable && onRetry && (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      )}
      <details>
        <summary>Details</summary>
        <p>
          {error.status === 0 ? 'No answer' : `HTTP ${error.status}`} <code>{error.code}</code>: {error.detail}
        </p>
        {error.errors.map((item) => (
          <p key={item.field}>
            <code>{item.field}</code>: {item.message}
          </p>
        ))}
      </details>
    </div>
  );
}
