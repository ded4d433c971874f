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
import { paymentColumns } from '../components/payment-columns';
import { ProblemMessage } from '../components/problem';
import { Amount, Details, Loaded, Status } from '../components/ui';
import { useAction } from '../components/use-action';
import { usePage } from '../components/use-page';
import { useRecord } from '../components/use-record';
import { formatCop, formatTime, shortReference } from '../format';
import type { QrCodeWithImage } from '../api';
import { t } from '../i18n';

type Tax = { readonly type: string; readonly value?: string | undefined; readonly base?: string | undefined };

/** A tax or tip as the code carries it: an amount, a rate, or left to the payer's wallet. */
function taxOf(tax: Tax | undefined): string | undefined {
  if (!tax) return undefined;
  if (tax.type === 'FIXED' && tax.value) {
    return tax.base
      ? t('qrcode.onBase', { tax: formatCop(tax.value), base: formatCop(tax.base) })
      : formatCop(tax.value);
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
      <h1>{t('qrcode.title', { reference })}</h1>
      <div class="qr-detail">
        <img
          class="qr-image"
          src={`data:image/png;base64,${code.qr_code_image}`}
          alt={t('qrcode.altFull', { reference })}
        />
        <Details
          rows={[
            [t('column.status'), <Status value={code.status} />],
            [t('column.type'), withMeaning('qrType', code.type)],
            [t('qrcode.channel'), withMeaning('channel', code.channel)],
            [t('column.amount'), <Amount money={code.amount} none={t('qrcode.payerEnters')} />],
            [t('qrcode.vat'), taxOf(vat && { type: vat.vat_type, value: vat.vat_value, base: vat.vat_base_value })],
            [t('qrcode.inc'), taxOf(inc && { type: inc.inc_type, value: inc.inc_value })],
            [
              t('qrcode.tip'),
              taxOf(
                tip && {
                  type: tip.tip_type,
                  value: tip.tip_type === 'PERCENTAGE' ? tip.tip_percentage : tip.tip_value,
                },
              ),
            ],
            [t('qrcode.purpose'), info?.transaction_purpose && withMeaning('purpose', info.transaction_purpose)],
            [t('qrcode.terminal'), info?.terminal_label],
            [t('column.merchant'), `${code.merchant.merchant_name}, ${code.merchant.merchant_city}`],
            [t('qrcode.key'), `${code.key.key_type} ${code.key.key_value}`],
            [t('qrcode.networkReference'), code.qr_code_reference],
            [t('column.created'), formatTime(code.created_at)],
            [t('column.updated'), formatTime(code.updated_at)],
          ]}
        />
      </div>
      <div class="actions">
        <a class="button" href={`data:image/png;base64,${code.qr_code_image}`} download={`qr-${reference}.png`}>
          {t('qrcode.download')}
        </a>
        <button type="button" onClick={() => print()}>
          {t('qrcode.print')}
        </button>
      </div>
      <CounterSign code={code} reference={reference} />
      <Payload payload={code.qr_code_data} />
      {code.status !== 'ACTIVE' ? (
        <p>{t(`qrcode.noLonger.${code.status}`)}</p>
      ) : (
        (may('deleteQrCode') || (config.sandbox && may('payInSandbox'))) && (
          <section aria-labelledby="qr-actions">
            <h2 id="qr-actions">{t('qrcode.actions')}</h2>
            <div class="actions">
              {may('deleteQrCode') && <DeleteQrCode id={code.id} onDeleted={reloadAll} />}
              {config.sandbox && may('payInSandbox') && <SandboxPayment code={code} onPaid={reloadAll} />}
            </div>
          </section>
        )
      )}
      <section aria-labelledby="qr-payments">
        <h2 id="qr-payments">{t('qrcode.payments')}</h2>
        <PagedTable
          page={payments}
          columns={paymentColumns()}
          caption={t('qrcode.paymentsCaption', { reference })}
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
      <p class="sign-amount">{code.amount ? formatCop(code.amount.value) : t('qrcode.signPay')}</p>
      <p class="sign-how">{t('qrcode.signHow')}</p>
      <p class="sign-reference">{reference}</p>
    </div>
  );
}

function Payload({ payload }: { readonly payload: string }) {
  const [copied, setCopied] = useState<string>();
  const copy = () => {
    navigator.clipboard.writeText(payload).then(
      () => setCopied(t('qrcode.copied')),
      () => setCopied(t('qrcode.copyRefused')),
    );
  };
  return (
    <div class="payload">
      <label for="qr-payload">{t('qrcode.payload')}</label>
      <textarea id="qr-payload" readOnly rows={3} value={payload} />
      <button type="button" onClick={copy}>
        {t('qrcode.copy')}
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
    action.run(() => api.deleteQrCode(id), t('qrcode.deleted'), onDeleted);
  };
  return (
    <div class="action">
      {confirming ? (
        <p>
          {t('qrcode.deleteAsk')}{' '}
          <button type="button" class="danger" onClick={remove}>
            {t('qrcode.deleteYes')}
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>
            {t('qrcode.deleteNo')}
          </button>
        </p>
      ) : (
        <button type="button" class="danger" disabled={action.busy} onClick={() => setConfirming(true)}>
          {t('qrcode.delete')}
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
      t('qrcode.paid'),
      () => {
        setIdempotencyKey(newIdempotencyKey());
        onPaid();
      },
    );
  };
  return (
    <form class="action" onSubmit={pay} aria-label={t('qrcode.sandboxPayment')} noValidate>
      {!code.amount && (
        <MoneyField id="sandbox-amount" label={t('qrcode.shopperAmount')} value={amount} onText={setAmount} />
      )}
      <button type="submit" disabled={action.busy}>
        {t('qrcode.pay')}
      </button>
      <p role="status" class="status-line">
        {action.done}
      </p>
      {action.error !== undefined && <ProblemMessage error={action.error} />}
    </form>
  );
}
