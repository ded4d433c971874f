/** Small pieces every page uses: statuses, amounts, a list's loading and empty states, a select. */
import type { ComponentChildren } from 'preact';
import type { Money } from '../api';
import { formatCop } from '../format';
import { ProblemMessage } from './problem';
import type { PageState } from './use-page';

export function Status({ value }: { readonly value: string }) {
  return <span class={`status status-${value.toLowerCase()}`}>{value}</span>;
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
  readonly empty: string;
  readonly children: (items: readonly T[]) => ComponentChildren;
}) {
  if (page.error) return <ProblemMessage error={page.error} />;
  if (!page.items) return <p role="status">Loading…</p>;
  if (page.items.length === 0) return <p>{empty}</p>;
  return <>{children(page.items)}</>;
}

export interface Choice {
  readonly value: string;
  readonly label: string;
}

/** A labelled select whose first option means "any". */
export function FilterSelect(props: {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly choices: readonly (Choice | string)[];
  readonly onChange: (value: string) => void;
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        <option value="">Any</option>
        {props.choices.map((choice) => {
          const { value, label } = typeof choice === 'string' ? { value: choice, label: choice } : choice;
          return (
            <option key={value} value={value}>
              {label}
            </option>
          );
        })}
      </select>
    </div>
  );
}

/** Terms and their values, as a description list. */
export function Details({ rows }: { readonly rows: readonly [string, ComponentChildren][] }) {
  return (
    <dl class="details">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
