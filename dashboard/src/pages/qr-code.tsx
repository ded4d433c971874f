/**
 * One QR code: its image at full size as the API draws it, its payload with a copy button, the
 * payments made against it, and what can be done to it (delete; in the sandbox, a shopper's payment).
 */
import { useState } from 'preact/hooks';
import { newIdempotencyKey, useDashboard, useMay } from '../components/context';
import { withMeaning } from '../codes';
import { MoneyField } from '../components/money-field';
import { parseCop } from '../money';
import { PagedTable } from '../components/paged-table';
import { PAYMENT_COLUMNS } from '../components/payment-columns';
import { ProblemMessage } from '../components/problem';
import { Amount, Details, Loaded, Status } from '../components/ui';
import { useAction } from '../components/use-action';
import { usePage } from '../components/use-page';
import { useRecord } from '../components/use-record';
import { formatCop, formatTime, shortReference } from '../format';
import type { QrCodeWithImage } from '../api';

type Tax = { readonly type: string; readonly value?: string | undefined; readonly base?: string | undefined };

/** A tax or tip as the code carries it: an amount, a rate, or left to the payer's wallet. */
function taxOf(tax: Tax | undefined): string | undefined {
  if (!tax) return undefined;
  if (tax.type === 'FIXED' && tax.value) {
    return `${formatCop(tax.value)}${tax.base ? ` (on a base of ${formatCop(tax.base)})` : ''}`;
  }
  if (tax.type === 'PERCENTAGE' && tax.value) return `${Number(tax.value).toLocaleString('es-CO')} %`;
  return withMeaning('taxType', tax.type);
}

export function QrCodePage({ id }: { readonly id: string }) {
  const { api } = useDashboard();
  const code = useRecord(() => api.getQrCode(id), id);
  return <Loaded state={code}>{(record) => <QrCodeDetails code={record} reload={code.reload} />}</Loaded>;
}

function QrCodeDetails({ code, reload }: { readonly code: QrCodeWithImage; readonly reload: () => void }) {
  const { api, config } = useDashboard();
  const reference = shortReference(code.qr_code_reference);
  const may = useMay();
  const payments = usePage(
    api.listPayments,
    'payments',
    { qr_code_reference: code.qr_code_reference },
    { changing: (items) => items.some((p) => p.status === 'PENDING' || p.status === 'PROCESSING') },
  );
  const { vat, inc, tip } = code;
  const info = code.additional_info;
  const reloadAll = () => {
    reload();
    payments.reload();
  };

  return (
    <>
      <h1>QR code {reference}</h1>
      <div class="qr-detail">
        <img
          class="qr-image"
          src={`data:image/png;base64,${code.qr_code_image}`}
          alt={`QR code ${reference}, to scan with a Bre-B wallet`}
        />
        <Details
          rows={[
            ['Status', <Status value={code.status} />],
            ['Type', withMeaning('qrType', code.type)],
            ['Channel', withMeaning('channel', code.channel)],
            ['Amount', <Amount money={code.amount} none="The payer enters it" />],
            ['VAT included', taxOf(vat && { type: vat.vat_type, value: vat.vat_value, base: vat.vat_base_value })],
            ['INC included', taxOf(inc && { type: inc.inc_type, value: inc.inc_value })],
            [
              'Tip',
              taxOf(
                tip && {
                  type: tip.tip_type,
                  value: tip.tip_type === 'PERCENTAGE' ? tip.tip_percentage : tip.tip_value,
                },
              ),
            ],
            ['Purpose', info?.transaction_purpose && withMeaning('purpose', info.transaction_purpose)],
            ['Terminal', info?.terminal_label],
            ['Merchant', `${code.merchant.merchant_name}, ${code.merchant.merchant_city}`],
            ['Bre-B key', `${code.key.key_type} ${code.key.key_value}`],
            ['Network reference', code.qr_code_reference],
            ['Created', formatTime(code.created_at)],
            ['Updated', formatTime(code.updated_at)],
          ]}
        />
      </div>
      <div class="actions">
        <a class="button" href={`data:image/png;base64,${code.qr_code_image}`} download={`qr-${reference}.png`}>
          Download PNG
        </a>
        <button type="button" onClick={() => print()}>
          Print
        </button>
      </div>
      <CounterSign code={code} reference={reference} />
      <Payload payload={code.qr_code_data} />
      {code.status !== 'ACTIVE' ? (
        <p>A {code.status.toLowerCase()} code can no longer be changed or paid.</p>
      ) : (
        (may('deleteQrCode') || (config.sandbox && may('payInSandbox'))) && (
          <section aria-labelledby="qr-actions">
            <h2 id="qr-actions">Actions</h2>
            <div class="actions">
              {may('deleteQrCode') && <DeleteQrCode id={code.id} onDeleted={reloadAll} />}
              {config.sandbox && may('payInSandbox') && <SandboxPayment code={code} onPaid={reloadAll} />}
            </div>
          </section>
        )
      )}
      <section aria-labelledby="qr-payments">
        <h2 id="qr-payments">Payments of this code</h2>
        <PagedTable
          page={payments}
          columns={PAYMENT_COLUMNS}
          caption={`Payments of QR code ${reference}`}
          noun="payments"
        />
      </section>
    </>
  );
}

/**
 * What Print puts on paper, and only it (styles.css, @media print): the code large, the merchant's
 * name, the amount when the code has one, the reference, on a page sized for a counter.
 */
function CounterSign({ code, reference }: { readonly code: QrCodeWithImage; readonly reference: string }) {
  return (
    <div class="counter-sign" aria-hidden="true">
      <p class="sign-merchant">{code.merchant.merchant_name}</p>
      <img src={`data:image/png;base64,${code.qr_code_image}`} alt="" />
      <p class="sign-amount">{code.amount ? formatCop(code.amount.value) : 'Pay with Bre-B'}</p>
      <p class="sign-how">Scan with your bank's app · Bre-B</p>
      <p class="sign-reference">{reference}</p>
    </div>
  );
}

function Payload({ payload }: { readonly payload: string }) {
  const [copied, setCopied] = useState<string>();
  const copy = () => {
    navigator.clipboard.writeText(payload).then(
      () => setCopied('Payload copied to the clipboard.'),
      () => setCopied('The browser refused the clipboard: select the payload and copy it by hand.'),
    );
  };
  return (
    <div class="payload">
      <label for="qr-payload">Payload (EMVCo)</label>
      <textarea id="qr-payload" readOnly rows={3} value={payload} />
      <button type="button" onClick={copy}>
        Copy payload
      </button>
      <p role="status" class="status-line">
        {copied}
      </p>
    </div>
  );
}

/** Delete asks once more before it deletes: a deleted code cannot be restored. */
function DeleteQrCode({ id, onDeleted }: { readonly id: string; readonly onDeleted: () => void }) {
  const { api } = useDashboard();
  const action = useAction();
  const [confirming, setConfirming] = useState(false);
  const remove = () => {
    setConfirming(false);
    action.run(() => api.deleteQrCode(id), 'QR code deleted.', onDeleted);
  };
  return (
    <div class="action">
      {confirming ? (
        <p>
          Delete this code? It can no longer be paid, and its reference stays taken.{' '}
          <button type="button" class="danger" onClick={remove}>
            Yes, delete it
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </p>
      ) : (
        <button type="button" class="danger" disabled={action.busy} onClick={() => setConfirming(true)}>
          Delete QR code
        </button>
      )}
      {action.error !== undefined && <ProblemMessage error={action.error} />}
    </div>
  );
}

/** The sandbox's shopper at another participant pays the code, as a wallet would after scanning it. */
function SandboxPayment({ code, onPaid }: { readonly code: QrCodeWithImage; readonly onPaid: () => void }) {
  const { api } = useDashboard();
  const action = useAction();
  const [amount, setAmount] = useState('');
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const parsed = parseCop(amount);
  const pay = (event: Event) => {
    event.preventDefault();
    if (!code.amount && !parsed.ok) return document.getElementById('sandbox-amount')?.focus();
    action.run(
      () => api.payQrCodeInSandbox(code.id, code.amount || !parsed.ok ? undefined : parsed.value, idempotencyKey),
      'The sandbox shopper paid the code.',
      () => {
        setIdempotencyKey(newIdempotencyKey());
        onPaid();
      },
    );
  };
  return (
    <form class="action" onSubmit={pay} aria-label="Sandbox payment" noValidate>
      {!code.amount && (
        <MoneyField id="sandbox-amount" label="Amount the shopper pays (COP)" value={amount} onText={setAmount} />
      )}
      <button type="submit" disabled={action.busy}>
        Pay as a sandbox shopper
      </button>
      <p role="status" class="status-line">
        {action.done}
      </p>
      {action.error !== undefined && <ProblemMessage error={action.error} />}
    </form>
  );
}
