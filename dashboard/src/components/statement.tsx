/**
 * An account's statement of one Bogotá day (GET /v1/accounts/{id}/statements/{date}): the day typed
 * as Colombia writes it (today by default), then its opening balance, credits and debits (how many,
 * for how much) and closing balance as a table, and the identity that ties them written out.
 */
import { useState } from 'preact/hooks';
import type { Statement } from '../api';
import { dayOf, parseDay } from '../days';
import { formatCop, formatDay, formatSignedCop } from '../format';
import { t } from '../i18n';
import { useDashboard } from './context';
import { DayField } from './filters';
import { Loaded } from './ui';
import { useRecord } from './use-record';

export function StatementOfDay({ accountId }: { readonly accountId: string }) {
  const today = dayOf(new Date());
  const [typed, setTyped] = useState(() => formatDay(today));
  const parsed = parseDay(typed);
  return (
    <section aria-labelledby="statement-title">
      <h2 id="statement-title">{t('statement.title')}</h2>
      <p class="hint">{t('statement.lead')}</p>
      <form class="filters statement-day" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="statement-day">{t('statement.day')}</label>
          <DayField id="statement-day" value={typed} onChange={setTyped} />
        </div>
      </form>
      {/* YYYY-MM-DD compares as the calendar does. */}
      {parsed.ok && parsed.day > today && <p class="empty">{t('statement.future')}</p>}
      {parsed.ok && parsed.day <= today && <DayStatement accountId={accountId} day={parsed.day} today={today} />}
    </section>
  );
}

function DayStatement(props: { readonly accountId: string; readonly day: string; readonly today: string }) {
  const { api } = useDashboard();
  const statement = useRecord(
    () => api.getAccountStatement(props.accountId, props.day),
    `${props.accountId}/${props.day}`,
  );
  return (
    <Loaded state={statement}>
      {(record) => <StatementTable statement={record} today={props.day === props.today} />}
    </Loaded>
  );
}

function StatementTable({ statement, today }: { readonly statement: Statement; readonly today: boolean }) {
  const { opening_balance: opening, closing_balance: closing, credits, debits } = statement;
  const row = (item: string, count: number | undefined, amount: string) => (
    <tr>
      <th scope="row">{item}</th>
      <td class="number">{count ?? ''}</td>
      <td class="number">{amount}</td>
    </tr>
  );
  return (
    <>
      <table class="statement">
        <caption>{t('statement.caption', { day: formatDay(statement.date) })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('statement.item')}</th>
            <th scope="col" class="number">
              {t('statement.count')}
            </th>
            <th scope="col" class="number">
              {t('statement.amount')}
            </th>
          </tr>
        </thead>
        <tbody>
          {row(t('statement.opening'), undefined, formatCop(opening.value))}
          {row(t('statement.credits'), credits.count, formatSignedCop(credits.amount.value))}
          {row(t('statement.debits'), debits.count, formatSignedCop(`-${debits.amount.value}`))}
          {row(t('statement.closing'), undefined, formatCop(closing.value))}
        </tbody>
      </table>
      <p class="identity">
        {t('statement.identity', {
          opening: formatCop(opening.value),
          credits: formatCop(credits.amount.value),
          debits: formatCop(debits.amount.value),
          closing: formatCop(closing.value),
        })}
      </p>
      {today && <p class="hint">{t('statement.today')}</p>}
    </>
  );
}
