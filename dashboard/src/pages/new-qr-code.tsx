/**
 * A new QR code from a form: a merchant's active key, the kind of code, its reference and, for a
 * code with an amount, the amount with the VAT and INC it includes (the API asks for both). The
 * API checks everything again; its refusal is shown field by field.
 */
import { useEffect, useState } from 'preact/hooks';
import type { BrebKey, CreateQrCodeRequest } from '../api';
import { newIdempotencyKey, useDashboard } from '../components/context';
import { useMerchants } from '../components/merchants';
import { ProblemMessage } from '../components/problem';
import { TextField } from '../components/text-field';
import { useAction } from '../components/use-action';
import { linkTo } from '../router';
import { CHANNELS } from './qr-codes';

type Kind = 'static' | 'hybrid' | 'dynamic';

const KINDS: readonly { value: Kind; label: string }[] = [
  { value: 'static', label: 'Static: the payer enters the amount' },
  { value: 'hybrid', label: 'Static with an amount' },
  { value: 'dynamic', label: 'Dynamic: one sale, paid once' },
];

type Purpose = Required<NonNullable<CreateQrCodeRequest['additional_info']>>['transaction_purpose'];

const PURPOSES: readonly Purpose[] = ['00', '02', '03', '04', '05', '06', '07'];

const AMOUNT = '[0-9]{1,10}\\.[0-9]{2}';

/** What a code with an amount asks for, in pesos with two decimals. */
const AMOUNT_FIELDS = [
  { name: 'amount', label: 'Amount (COP)' },
  { name: 'vat', label: 'VAT included (COP)' },
  { name: 'inc', label: 'INC included (COP)' },
] as const;

/** "119000.00" - "19000.00" = "100000.00", in whole cents. */
function minus(amount: string, part: string): string {
  const cents = Math.round(Number(amount) * 100) - Math.round(Number(part) * 100);
  return (cents / 100).toFixed(2);
}

interface Fields {
  customer_id: string;
  key_id: string;
  kind: Kind;
  channel: CreateQrCodeRequest['channel'];
  reference: string;
  amount: string;
  vat: string;
  inc: string;
  purpose: Purpose;
  terminal: string;
}

function requestOf(fields: Fields): CreateQrCodeRequest {
  const base = {
    customer_id: fields.customer_id,
    key_id: fields.key_id,
    channel: fields.channel,
    qr_code_reference: fields.reference,
  };
  if (fields.kind === 'static') return { ...base, type: 'STATIC' };
  const priced = {
    ...base,
    amount: { value: fields.amount, currency: 'COP' as const },
    vat: { vat_type: 'FIXED' as const, vat_value: fields.vat, vat_base_value: minus(fields.amount, fields.vat) },
    inc: { inc_type: 'FIXED' as const, inc_value: fields.inc },
  };
  if (fields.kind === 'hybrid') return { ...priced, type: 'STATIC' };
  return {
    ...priced,
    type: 'DYNAMIC',
    additional_info: { transaction_purpose: fields.purpose, terminal_label: fields.terminal },
  };
}

/** The merchant's keys that can print codes: ACTIVE ones. */
function useActiveKeys(customerId: string): readonly BrebKey[] {
  const { api } = useDashboard();
  const [keys, setKeys] = useState<readonly BrebKey[]>([]);
  useEffect(() => {
    if (!customerId) return setKeys([]);
    let live = true;
    api.listKeys({ page_number: 1, page_size: 100, customer_id: customerId, status: 'ACTIVE' }).then(
      (page) => live && setKeys(page.keys),
      () => live && setKeys([]),
    );
    return () => {
      live = false;
    };
  }, [api, customerId]);
  return keys;
}

export function NewQrCodePage() {
  const { api } = useDashboard();
  const { merchants } = useMerchants();
  const action = useAction();
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const [fields, setFields] = useState<Fields>({
    customer_id: '',
    key_id: '',
    kind: 'static',
    channel: 'POS',
    reference: '',
    amount: '',
    vat: '0.00',
    inc: '0.00',
    purpose: '00',
    terminal: '',
  });
  const keys = useActiveKeys(fields.customer_id);
  const setValue = (name: keyof Fields) => (value: string) => {
    setFields((previous) => ({ ...previous, [name]: value, ...(name === 'customer_id' ? { key_id: '' } : {}) }));
    // Another request: a retry of it is not the one sent before.
    setIdempotencyKey(newIdempotencyKey());
  };
  const set = (name: keyof Fields) => (event: { currentTarget: { value: string } }) =>
    setValue(name)(event.currentTarget.value);

  const submit = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      const created = await api.createQrCode(requestOf(fields), idempotencyKey);
      location.hash = linkTo('qrcodes', created.id);
    }, 'QR code created.');
  };

  const priced = fields.kind !== 'static';
  return (
    <>
      <h1>New QR code</h1>
      <form class="form" onSubmit={submit}>
        <div class="field">
          <label for="new-merchant">Merchant</label>
          <select id="new-merchant" required value={fields.customer_id} onChange={set('customer_id')}>
            <option value="">Choose a merchant</option>
            {merchants
              .filter((m) => m.status === 'ACTIVE')
              .map((m) => (
                <option key={m.id} value={m.id}>
                  {m.business_name} (NIT {m.identification_number})
                </option>
              ))}
          </select>
        </div>
        <div class="field">
          <label for="new-key">Bre-B key</label>
          <select id="new-key" required value={fields.key_id} onChange={set('key_id')} aria-describedby="new-key-hint">
            <option value="">Choose an active key</option>
            {keys.map((k) => (
              <option key={k.id} value={k.id}>
                {k.key.key_type} {k.key.key_value}
              </option>
            ))}
          </select>
          <p id="new-key-hint" class="hint">
            The merchant's active keys; payments of the code go to the key's account.
          </p>
        </div>
        <div class="field">
          <label for="new-kind">Kind of code</label>
          <select id="new-kind" value={fields.kind} onChange={set('kind')}>
            {KINDS.map((k) => (
              <option key={k.value} value={k.value}>
                {k.label}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="new-channel">Channel</label>
          <select id="new-channel" value={fields.channel} onChange={set('channel')}>
            {CHANNELS.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <TextField
          id="new-reference"
          label="Reference"
          hint="1 to 17 letters or digits, without P; unique for the merchant."
          required
          maxLength={17}
          pattern="[A-OQ-Za-oq-z0-9]{1,17}"
          value={fields.reference}
          onText={setValue('reference')}
        />
        {priced && (
          <fieldset>
            <legend>Amount</legend>
            {AMOUNT_FIELDS.map(({ name, label }) => (
              <TextField
                key={name}
                id={`new-${name}`}
                label={label}
                required
                inputMode="decimal"
                pattern={AMOUNT}
                placeholder={name === 'amount' ? '119000.00' : '0.00'}
                value={fields[name]}
                onText={setValue(name)}
              />
            ))}
          </fieldset>
        )}
        {fields.kind === 'dynamic' && (
          <fieldset>
            <legend>Sale</legend>
            <div class="field">
              <label for="new-purpose">Transaction purpose</label>
              <select id="new-purpose" value={fields.purpose} onChange={set('purpose')}>
                {PURPOSES.map((p) => (
                  <option key={p} value={p}>
                    {p === '00' ? '00 (purchase)' : p}
                  </option>
                ))}
              </select>
            </div>
            <TextField
              id="new-terminal"
              label="Terminal label"
              required
              maxLength={25}
              pattern="[ -~]{1,25}"
              placeholder="CAJA01"
              value={fields.terminal}
              onText={setValue('terminal')}
            />
          </fieldset>
        )}
        <div class="actions">
          <button type="submit" disabled={action.busy}>
            Create QR code
          </button>
          <a href={linkTo('qrcodes')}>Cancel</a>
        </div>
        {action.error !== undefined && <ProblemMessage error={action.error} />}
      </form>
    </>
  );
}
