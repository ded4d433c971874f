/**
 * What the page says when something fails: in words for a person first (what happened, what to do),
 * the API's own status, code and detail behind a "Details" toggle for whoever reports it. A form
 * shows the API's field errors beside its fields (fieldProblems); what no field of the form holds
 * is listed here, in words.
 */
import { ApiProblem } from '../api';
import { useDashboard } from './context';
import { plainFieldMessage } from '../field-messages';
import { t } from '../i18n';

/** The sentence a person reads. */
function explain(problem: ApiProblem): string {
  if (problem.status === 0) return t('problem.unreachable');
  if (problem.status === 403 && problem.code === 'INSUFFICIENT_SCOPE') {
    return t('problem.readOnly');
  }
  if (problem.status === 403) return t('problem.otherPlatform');
  if (problem.status === 404) return t('problem.notFound');
  if (problem.code === 'WEBHOOK_LIMIT_REACHED') return t('problem.webhookLimit');
  if (problem.status === 409) return t('problem.conflict');
  if (problem.status === 429) return t('problem.tooMany');
  if (problem.status === 400 || problem.status === 422) return t('problem.correct');
  if (problem.status >= 500) return t('problem.unavailable');
  return t('problem.other');
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
        <p>{t('problem.inPage', { error: String(error) })}</p>
      </div>
    );
  }
  if (error.status === 401) {
    return (
      <div class="problem" role="alert">
        <p>{t('problem.sessionEnded')}</p>
        <button type="button" onClick={signIn}>
          {t('problem.signInAgain')}
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
          {t('app.retry')}
        </button>
      )}
      <details>
        <summary>{t('app.details')}</summary>
        <p>
          {error.status === 0 ? t('problem.noAnswer') : `HTTP ${error.status}`} <code>{error.code}</code>:{' '}
          {error.detail}
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
