/** One account: its merchant and balances, its ledger a page at a time, and the statement of any day. */
import type { AccountDetail } from '../api';
import { useDashboard } from '../components/context';
import { DownloadCsv } from '../components/download-csv';
import { movementColumns } from '../components/movement-columns';
import { PagedTable } from '../components/paged-table';
import { StatementOfDay } from '../components/statement';
import { Amount, Details, Loaded } from '../components/ui';
import { usePage } from '../components/use-page';
import { useRecord } from '../components/use-record';
import { formatTime } from '../format';
import { t } from '../i18n';
import { reportPeriod } from '../report-period';
import { linkTo } from '../router';

export function AccountPage({ id }: { readonly id: string }) {
  const { api } = useDashboard();
  const account = useRecord(() => api.getAccount(id), id);
  return <Loaded state={account}>{(record) => <AccountDetails account={record} />}</Loaded>;
}

function AccountDetails({ account }: { readonly account: AccountDetail }) {
  const { api } = useDashboard();
  // The merchant's name, for the link back; the account is shown without it while it is read.
  const merchant = useRecord(() => api.getCustomer(account.customer_id), account.customer_id);
  const movements = usePage((query) => api.listAccountMovements(account.id, query), 'movements');
  return (
    <>
      <h1>{t('account.title', { number: account.number })}</h1>
      <Details
        rows={[
          [
            t('account.merchant'),
            <a href={linkTo('merchants', account.customer_id)}>
              {merchant.record?.business_name ?? account.customer_id}
            </a>,
          ],
          [t('account.type'), account.type],
          [t('account.available'), <Amount money={account.available_balance} />],
          [t('account.pending'), <Amount money={account.pending_balance} />],
          [t('column.linked'), formatTime(account.created_at)],
        ]}
      />
      <h2>{t('account.movements')}</h2>
      <p class="hint">{t('account.movementsLead')}</p>
      <DownloadCsv
        filters={{ type: 'movements', account_id: account.id }}
        period={() => reportPeriod({})}
        lead={t('report.movementsLead')}
      />
      <PagedTable page={movements} columns={movementColumns()} noun="movements" empty={t('account.noMovements')} />
      <StatementOfDay accountId={account.id} />
    </>
  );
}
