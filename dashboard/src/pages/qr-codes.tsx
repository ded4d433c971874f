/** The tenant's QR codes: filters, a page of them with their thumbnails, the way to a new one. */
import { useState } from 'preact/hooks';
import { useDashboard } from '../components/context';
import { useMerchants } from '../components/merchants';
import { Pager } from '../components/pager';
import { Amount, FilterSelect, ListBody, Status } from '../components/ui';
import { usePage } from '../components/use-page';
import { formatTime, shortReference } from '../format';
import { qrThumbnailUrl } from '../qr-thumbnail';
import { linkTo } from '../router';

export const CHANNELS = ['POS', 'IM', 'APP', 'ECOMM', 'MPOS', 'CB', 'OFC', 'ATM'];

export function QrCodesPage() {
  const { api } = useDashboard();
  const { choices: merchants } = useMerchants();
  const [filters, setFilters] = useState({ customer_id: '', status: '', type: '', channel: '', created_at: '' });
  const set = (name: keyof typeof filters) => (value: string) => setFilters({ ...filters, [name]: value });
  const page = usePage(api.listQrCodes, 'qr_codes', filters);

  return (
    <>
      <div class="page-heading">
        <h1>QR codes</h1>
        <a class="button" href={linkTo('qrcodes', 'new')}>
          New QR code
        </a>
      </div>
      <form class="filters" role="search" aria-label="Filter QR codes" onSubmit={(e) => e.preventDefault()}>
        <FilterSelect
          id="qr-merchant"
          label="Merchant"
          value={filters.customer_id}
          choices={merchants}
          onChange={set('customer_id')}
        />
        <FilterSelect
          id="qr-status"
          label="Status"
          value={filters.status}
          choices={['ACTIVE', 'PAID', 'DELETED']}
          onChange={set('status')}
        />
        <FilterSelect
          id="qr-type"
          label="Type"
          value={filters.type}
          choices={['STATIC', 'DYNAMIC']}
          onChange={set('type')}
        />
        <FilterSelect
          id="qr-channel"
          label="Channel"
          value={filters.channel}
          choices={CHANNELS}
          onChange={set('channel')}
        />
        <div class="field">
          <label for="qr-created">Created on (UTC day)</label>
          <input
            id="qr-created"
            type="date"
            value={filters.created_at}
            onChange={(e) => set('created_at')(e.currentTarget.value)}
          />
        </div>
      </form>
      <ListBody page={page} empty="No QR codes match.">
        {(codes) => (
          <table>
            <caption class="visually-hidden">QR codes, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Reference</th>
                <th scope="col">Merchant</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col" class="number">
                  Amount
                </th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {codes.map((code) => (
                <tr key={code.id}>
                  <td>
                    <img
                      class="thumbnail"
                      src={qrThumbnailUrl(code.qr_code_data)}
                      alt={`QR code ${shortReference(code.qr_code_reference)}`}
                      width={56}
                      height={56}
                    />
                  </td>
                  <td>
                    <a href={linkTo('qrcodes', code.id)}>{shortReference(code.qr_code_reference)}</a>
                  </td>
                  <td>{code.merchant.merchant_name}</td>
                  <td>{code.type}</td>
                  <td>
                    <Status value={code.status} />
                  </td>
                  <td class="number">
                    <Amount money={code.amount} none="Payer enters it" />
                  </td>
                  <td>{formatTime(code.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ListBody>
      <Pager page={page} noun="QR codes" />
    </>
  );
}
