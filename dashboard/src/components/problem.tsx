/**
 * What the page says when the API refuses something: in words first, then the API's own code and
 * detail, so that a person learns why (a viewer's write: the scope their sign-in lacks).
 */
import { ApiProblem } from '../api';
import { useDashboard } from './context';

function explain(problem: ApiProblem): string {
  if (problem.status === 403 && problem.code === 'INSUFFICIENT_SCOPE') {
    return 'Your sign-in does not allow this: it can read, not change.';
  }
  if (problem.status === 403) return 'This belongs to another client.';
  if (problem.status === 404) return 'Not found: it may have been removed.';
  if (problem.status === 409) return 'Not possible in its current state.';
  if (problem.status === 429) return 'Too many requests at once: wait a moment and retry.';
  if (problem.status === 400) return 'The API did not accept this.';
  if (problem.status === 0) return 'The API could not be reached.';
  return 'The API could not do this.';
}

export function ProblemMessage({ error }: { readonly error: unknown }) {
  const { signIn } = useDashboard();
  if (!(error instanceof ApiProblem)) {
    return (
      <div class="problem" role="alert">
        <p>Something went wrong: {String(error)}</p>
      </div>
    );
  }
  if (error.status === 401) {
    return (
      <div class="problem" role="alert">
        <p>Your session has ended.</p>
        <button type="button" onClick={signIn}>
          Sign in again
        </button>
      </div>
    );
  }
  return (
    <div class="problem" role="alert">
      <p class="problem-summary">
        <strong>{explain(error)}</strong>
      </p>
      <p>
        The API answered {error.status} <code>{error.code}</code>: {error.detail}
      </p>
      {error.errors.length > 0 && (
        <ul>
          {error.errors.map((item) => (
            <li key={item.field}>
              <code>{item.field}</code>: {item.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
