/** The tenant's QR codes: filters, a page of them with their thumbnails, the way to a new one. */
import type { QrCode } from '../api';
import { withMeaning } from '../codes';
import { useDashboard, useMay } from '../components/context';
import type { Column } from '../components/data-table';
import { Filters, queryOf, useFilters } from '../components/filters';
import { FirstRun } from '../components/first-run';
import { useMerchantFilter } from '../components/merchants';
import { PagedTable } from '../components/paged-table';
import { Amount, Status } from '../components/ui';
import { usePage } from '../components/use-page';
import { formatTime, shortReference } from '../format';
import { qrThumbnailUrl } from '../qr-thumbnail';
import { linkTo } from '../router';
import { t } from '../i18n';

export const CHANNELS: readonly QrCode['channel'][] = ['POS', 'IM', 'APP', 'ECOMM', 'MPOS', 'CB', 'OFC', 'ATM'];

const qrCodeColumns = (): readonly Column<QrCode>[] => [
  {
    header: t('column.code'),
    cell: (code) => (
      <img
        class="thumbnail"
        src={qrThumbnailUrl(code.qr_code_data)}
        alt={t('qrcode.alt', { reference: shortReference(code.qr_code_reference) })}
        width={56}
        height={56}
      />
    ),
  },
  {
    header: t('column.reference'),
    cell: (code) => <a href={linkTo('qrcodes', code.id)}>{shortReference(code.qr_code_reference)}</a>,
  },
  { header: t('column.merchant'), cell: (code) => code.merchant.merchant_name },
  { header: t('column.type'), cell: (code) => withMeaning('qrType', code.type) },
  { header: t('column.status'), cell: (code) => <Status value={code.status} /> },
  {
    header: t('column.amount'),
    numeric: true,
    cell: (code) => <Amount money={code.amount} none={t('qrcodes.payerEnters')} />,
  },
  { header: t('column.created'), cell: (code) => formatTime(code.created_at) },
];

export function QrCodesPage() {
  const { api } = useDashboard();
  const may = useMay();
  const specs = [
    useMerchantFilter(),
    { name: 'status', label: t('filter.status'), choices: ['ACTIVE', 'PAID', 'DELETED'] },
    {
      name: 'type',
      label: t('filter.type'),
      choices: (['STATIC', 'DYNAMIC'] as const).map((t) => ({ value: t, label: withMeaning('qrType', t) })),
    },
    {
      name: 'channel',
      label: t('filter.channel'),
      choices: CHANNELS.map((c) => ({ value: c, label: withMeaning('channel', c) })),
    },
    { name: 'created', label: t('filter.createdOn'), kind: 'day' as const },
  ];
  const [filters, setFilter] = useFilters(specs);
  const query = queryOf(specs, filters);
  const page = usePage(api.listQrCodes, 'qr_codes', query);
  const filtered = Object.keys(query).length > 0;

  return (
    <>
      <div class="page-heading">
        <h1>{t('qrcodes.title')}</h1>
        {may('createQrCode') && (
          <a class="button" href={linkTo('qrcodes', 'new')}>
            {t('qrcodes.new')}
          </a>
        )}
      </div>
      <Filters label={t('filter.qrcodes')} specs={specs} values={filters} onChange={setFilter} />
      {!filtered && page.items?.length === 0 && !page.error ? (
        <FirstRun />
      ) : (
        <PagedTable page={page} noun="qrcodes" columns={qrCodeColumns()} />
      )}
    </>
  );
}
