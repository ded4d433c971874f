/** Small pieces every page uses: statuses, amounts, a list's or a record's loading and refusal, details. */
import type { ComponentChildren } from 'preact';
import type { Money } from '../api';
import { formatCop } from '../format';
import { ProblemMessage } from './problem';
import type { PageState } from './use-page';
import type { RecordState } from './use-record';
import { t } from '../i18n';

/**
 * A status as the API names it; `review`: a transfer the network left unanswered, which waits for an
 * operator (the API's `review`), said in words beside it.
 */
export function Status({ value, review = false }: { readonly value: string; readonly review?: boolean }) {
  const status = <span class={`status status-${value.toLowerCase()}`}>{value}</span>;
  if (!review) return status;
  return (
    <>
      {status} <span class="status status-review">{t('review.badge')}</span>
    </>
  );
}

export function Amount({ money, none = '' }: { readonly money: Money | undefined; readonly none?: string }) {
  return money ? <span class="amount">{formatCop(money.value)}</span> : <span>{none}</span>;
}

/** A list's table once its page is read; the refusal, or a line saying there is nothing. */
export function ListBody<T>({
  page,
  empty,
  children,
}: {
  readonly page: PageState<T>;
  readonly empty: ComponentChildren;
  readonly children: (items: readonly T[]) => ComponentChildren;
}) {
  if (page.error) return <ProblemMessage error={page.error} onRetry={page.reload} />;
  if (!page.items) return <p role="status">{t('app.loading')}</p>;
  if (page.items.length === 0) return <p class="empty">{empty}</p>;
  return <>{children(page.items)}</>;
}

/** A detail page's record once read, or its refusal. */
export function Loaded<T>({
  state,
  children,
}: {
  readonly state: RecordState<T>;
  readonly children: (record: T) => ComponentChildren;
}) {
  if (state.error) return <ProblemMessage error={state.error} onRetry={state.reload} />;
  if (!state.record) return <p role="status">{t('app.loading')}</p>;
  return <>{children(state.record)}</>;
}

/** A row of Details; one whose value is empty (undefined, '', false) is left out. */
export type DetailRow = readonly [string, ComponentChildren];

/** Terms and their values, as a description list; rows without a value are not shown. */
export function Details({ rows }: { readonly rows: readonly DetailRow[] }) {
  return (
    <dl class="details">
      {rows
        .filter(([, value]) => value !== undefined && value !== null && value !== '' && value !== false)
        .map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}
