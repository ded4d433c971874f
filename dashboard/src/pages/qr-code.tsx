/**
 * One QR code: its image at full size as the API draws it, its payload with a copy button, the
 * payments made against it, and what can be done to it (delete; in the sandbox, a shopper's payment).
 */
import { useState } from 'preact/hooks';
import { newIdempotencyKey, useDashboard } from '../components/context';
import { PagedTable } from '../components/paged-table';
import { PAYMENT_COLUMNS } from '../components/payment-columns';
import { ProblemMessage } from '../components/problem';
import { Amount, Details, Loaded, Status } from '../components/ui';
import { useAction } from '../components/use-action';
import { usePage } from '../components/use-page';
import { useRecord } from '../components/use-record';
import { formatTime, shortReference } from '../format';
import type { QrCodeWithImage } from '../api';

export function QrCodePage({ id }: { readonly id: string }) {
  const { api } = useDashboard();
  const code = useRecord(() => api.getQrCode(id), id);
  return <Loaded state={code}>{(record) => <QrCodeDetails code={record} reload={code.reload} />}</Loaded>;
}

function QrCodeDetails({ code, reload }: { readonly code: QrCodeWithImage; readonly reload: () => void }) {
  const { api, config } = useDashboard();
  const reference = shortReference(code.qr_code_reference);
  const payments = usePage(api.listPayments, 'payments', { qr_code_reference: code.qr_code_reference });
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
            ['Type', code.type],
            ['Channel', code.channel],
            ['Amount', <Amount money={code.amount} none="The payer enters it" />],
            ['Merchant', `${code.merchant.merchant_name}, ${code.merchant.merchant_city}`],
            ['Bre-B key', `${code.key.key_type} ${code.key.key_value}`],
            ['Network reference', code.qr_code_reference],
            ['Created', formatTime(code.created_at)],
            ['Updated', formatTime(code.updated_at)],
          ]}
        />
      </div>
      <Payload payload={code.qr_code_data} />
      <section aria-labelledby="qr-actions">
        <h2 id="qr-actions">Actions</h2>
        {code.status === 'ACTIVE' ? (
          <div class="actions">
            <DeleteQrCode id={code.id} onDeleted={reloadAll} />
            {config.sandbox && <SandboxPayment code={code} onPaid={reloadAll} />}
          </div>
        ) : (
          <p>A {code.status.toLowerCase()} code can no longer be changed or paid.</p>
        )}
      </section>
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
  const pay = (event: Event) => {
    event.preventDefault();
    action.run(
      () => api.payQrCodeInSandbox(code.id, code.amount ? undefined : amount, idempotencyKey),
      'The sandbox shopper paid the code.',
      () => {
        setIdempotencyKey(newIdempotencyKey());
        onPaid();
      },
    );
  };
  return (
    <form class="action" onSubmit={pay} aria-label="Sandbox payment">
      {!code.amount && (
        <div class="field">
          <label for="sandbox-amount">Amount the shopper pays (COP)</label>
          <input
            id="sandbox-amount"
            inputMode="decimal"
            pattern="[0-9]+\.[0-9]{2}"
            placeholder="15000.00"
            required
            value={amount}
            onInput={(e) => setAmount(e.currentTarget.value)}
          />
        </div>
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
