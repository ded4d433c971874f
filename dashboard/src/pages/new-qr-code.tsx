/**
 * A new QR code from a form: a merchant's active key, the kind of code, its reference and, for a
 * code with an amount, the amount with the VAT and INC it includes (the API asks for both). The
 * API checks everything again; its refusal is shown field by field.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiProblem, type BrebKey, type CreateQrCodeRequest } from '../api';
import { newIdempotencyKey, useDashboard, useMay } from '../components/context';
import { useMerchants } from '../components/merchants';
import { MoneyField } from '../components/money-field';
import { fieldProblems, ProblemMessage } from '../components/problem';
import { TextField } from '../components/text-field';
import { withMeaning } from '../codes';
import { amountOfCents, centsOf, parseCop } from '../money';
import { useAction } from '../components/use-action';
import { linkTo } from '../router';
import { CHANNELS } from './qr-codes';
import { t, type MessageKey } from '../i18n';

type Kind = 'static' | 'hybrid' | 'dynamic';

const KINDS: readonly { value: Kind; label: MessageKey }[] = [
  { value: 'static', label: 'newQr.static' },
  { value: 'hybrid', label: 'newQr.hybrid' },
  { value: 'dynamic', label: 'newQr.dynamic' },
];

type Purpose = Required<NonNullable<CreateQrCodeRequest['additional_info']>>['transaction_purpose'];

const PURPOSES: readonly Purpose[] = ['00', '02', '03', '04', '05', '06', '07'];

/** A QR code's amounts have at most 10 digits before the cents (the API's rule). */
const QR_AMOUNT_DIGITS = 10;

/** What a code with an amount asks for. */
const AMOUNT_FIELDS = [
  { name: 'amount', label: 'newQr.amount' },
  { name: 'vat', label: 'newQr.vat' },
  { name: 'inc', label: 'newQr.inc' },
] as const;

/** The API's fields, by the id of the form's field that holds them (the VAT's base is the form's sum). */
const API_FIELDS: Readonly<Record<string, string>> = {
  customer_id: 'new-merchant',
  key_id: 'new-key',
  qr_code_reference: 'new-reference',
  'amount.value': 'new-amount',
  'vat.vat_value': 'new-vat',
  'vat.vat_base_value': 'new-vat',
  'inc.inc_value': 'new-inc',
  'additional_info.terminal_label': 'new-terminal',
  'additional_info.transaction_purpose': 'new-purpose',
  channel: 'new-channel',
};

const REFERENCE = /^[A-OQ-Za-oq-z0-9]{1,17}$/;
const PRINTABLE = /^[\x20-\x7E]{1,25}$/;

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

/** The form's values as the API takes them, or what the person must correct first (by field id). */
function checked(fields: Fields): { request: CreateQrCodeRequest } | { problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  if (!REFERENCE.test(fields.reference)) {
    problems['new-reference'] = t('newQr.referenceRule');
  }
  const base = {
    customer_id: fields.customer_id,
    key_id: fields.key_id,
    channel: fields.channel,
    qr_code_reference: fields.reference,
  };
  if (fields.kind === 'static') {
    return Object.keys(problems).length ? { problems } : { request: { ...base, type: 'STATIC' } };
  }
  const [amount, vat, inc] = AMOUNT_FIELDS.map(({ name }) => parseCop(fields[name], QR_AMOUNT_DIGITS));
  for (const [index, parsed] of [amount, vat, inc].entries()) {
    if (!parsed?.ok) problems[`new-${AMOUNT_FIELDS[index]!.name}`] = parsed?.error ?? '';
  }
  if (amount?.ok && centsOf(amount.value) === 0n) problems['new-amount'] = t('newQr.amountZero');
  if (amount?.ok && vat?.ok && inc?.ok && centsOf(amount.value) < centsOf(vat.value) + centsOf(inc.value)) {
    problems['new-amount'] = t('newQr.amountTaxes');
  }
  if (fields.kind === 'dynamic' && !PRINTABLE.test(fields.terminal)) {
    problems['new-terminal'] = t('newQr.terminalRule');
  }
  if (Object.keys(problems).length || !amount?.ok || !vat?.ok || !inc?.ok) return { problems };
  const priced = {
    ...base,
    amount: { value: amount.value, currency: 'COP' as const },
    vat: {
      vat_type: 'FIXED' as const,
      vat_value: vat.value,
      vat_base_value: amountOfCents(centsOf(amount.value) - centsOf(vat.value)),
    },
    inc: { inc_type: 'FIXED' as const, inc_value: inc.value },
  };
  if (fields.kind === 'hybrid') return { request: { ...priced, type: 'STATIC' } };
  return {
    request: {
      ...priced,
      type: 'DYNAMIC',
      additional_info: { transaction_purpose: fields.purpose, terminal_label: fields.terminal },
    },
  };
}

/** The read of a merchant's keys: "no key" only when a read said so, never when it failed. */
type KeysRead =
  | { readonly step: 'none' | 'reading' }
  | { readonly step: 'read'; readonly keys: readonly BrebKey[] }
  | { readonly step: 'failed'; readonly error: unknown };

/** The merchant's keys that can print codes (ACTIVE ones), and a way to read them again after a failure. */
function useActiveKeys(customerId: string): { readonly read: KeysRead; readonly retry: () => void } {
  const { api } = useDashboard();
  const [read, setRead] = useState<KeysRead>({ step: 'none' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!customerId) return setRead({ step: 'none' });
    let live = true;
    setRead({ step: 'reading' });
    api.listKeys({ page_number: 1, page_size: 100, customer_id: customerId, status: 'ACTIVE' }).then(
      (page) => live && setRead({ step: 'read', keys: page.keys }),
      (error: unknown) => live && setRead({ step: 'failed', error }),
    );
    return () => {
      live = false;
    };
  }, [api, customerId, attempt]);
  return { read, retry: () => setAttempt((n) => n + 1) };
}

export function NewQrCodePage() {
  const may = useMay();
  if (!may('createQrCode')) {
    return (
      <>
        <h1>{t('qrcodes.new')}</h1>
        <p>{t('newQr.mayNot')}</p>
        <a href={linkTo('qrcodes')}>{t('newQr.back')}</a>
      </>
    );
  }
  return <NewQrCodeForm />;
}

function NewQrCodeForm() {
  const { api } = useDashboard();
  const { merchants, state: merchantsRead, retry: readMerchantsAgain } = useMerchants();
  const action = useAction();
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const [fields, setFields] = useState<Fields>({
    customer_id: '',
    key_id: '',
    kind: 'static',
    channel: 'POS',
    reference: '',
    amount: '',
    vat: '0',
    inc: '0',
    purpose: '00',
    terminal: '',
  });
  const { read: keysRead, retry: readKeysAgain } = useActiveKeys(fields.customer_id);
  const keys = keysRead.step === 'read' ? keysRead.keys : [];
  const active = merchants.filter((m) => m.status === 'ACTIVE');
  const setValue = (name: keyof Fields) => (value: string) => {
    setFields((previous) => ({ ...previous, [name]: value, ...(name === 'customer_id' ? { key_id: '' } : {}) }));
    // Another request: a retry of it is not the one sent before.
    setIdempotencyKey(newIdempotencyKey());
  };
  const set = (name: keyof Fields) => (event: { currentTarget: { value: string } }) =>
    setValue(name)(event.currentTarget.value);

  const [problems, setProblems] = useState<Record<string, string>>({});
  const submit = (event: Event) => {
    event.preventDefault();
    const outcome = checked(fields);
    if ('problems' in outcome) {
      setProblems(outcome.problems);
      // The first field to correct takes the focus, as the browser's own check would.
      const first = Object.keys(outcome.problems)[0];
      if (first) document.getElementById(first)?.focus();
      return;
    }
    setProblems({});
    action.run(async () => {
      const created = await api.createQrCode(outcome.request, idempotencyKey);
      location.hash = linkTo('qrcodes', created.id);
    }, t('newQr.created'));
  };
  const apiProblems = fieldProblems(action.error, API_FIELDS);
  const taken = action.error instanceof ApiProblem && action.error.code === 'QR_CODE_REFERENCE_TAKEN';
  const problemOf = (id: string): string | undefined =>
    problems[id] ?? apiProblems[id] ?? (id === 'new-reference' && taken ? t('newQr.taken') : undefined);

  const priced = fields.kind !== 'static';
  return (
    <>
      <h1>{t('qrcodes.new')}</h1>
      <form class="form" onSubmit={submit} noValidate>
        <div class="field">
          <label for="new-merchant">{t('newQr.merchant')}</label>
          <select
            id="new-merchant"
            required
            value={fields.customer_id}
            onChange={set('customer_id')}
            aria-describedby={merchantsRead.step === 'read' && active.length === 0 ? 'new-merchant-hint' : undefined}
          >
            <option value="">{t('newQr.chooseMerchant')}</option>
            {active.map((m) => (
              <option key={m.id} value={m.id}>
                {m.business_name} (NIT {m.identification_number})
              </option>
            ))}
          </select>
          {/* "No merchant" only when the read said so: a failed read says it failed, with Retry. */}
          {merchantsRead.step === 'failed' && (
            <ProblemMessage error={merchantsRead.error} onRetry={readMerchantsAgain} />
          )}
          {merchantsRead.step === 'read' && active.length === 0 && (
            <p id="new-merchant-hint" class="hint">
              {t('newQr.noMerchant')} <a href={linkTo('merchants')}>{t('newQr.noMerchantLink')}</a> {t('newQr.first')}
            </p>
          )}
        </div>
        <div class="field">
          <label for="new-key">{t('newQr.key')}</label>
          <select id="new-key" required value={fields.key_id} onChange={set('key_id')} aria-describedby="new-key-hint">
            <option value="">{t('newQr.chooseKey')}</option>
            {keys.map((k) => (
              <option key={k.id} value={k.id}>
                {k.key.key_type} {k.key.key_value}
              </option>
            ))}
          </select>
          {keysRead.step === 'failed' && <ProblemMessage error={keysRead.error} onRetry={readKeysAgain} />}
          <p id="new-key-hint" class="hint">
            {keysRead.step === 'read' && keys.length === 0 ? (
              <>
                {t('newQr.noKey')} <a href={linkTo('merchants', fields.customer_id)}>{t('newQr.noKeyLink')}</a>.
              </>
            ) : (
              t('newQr.keyHint')
            )}
          </p>
        </div>
        <div class="field">
          <label for="new-kind">{t('newQr.kind')}</label>
          <select id="new-kind" value={fields.kind} onChange={set('kind')}>
            {KINDS.map((k) => (
              <option key={k.value} value={k.value}>
                {t(k.label)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="new-channel">{t('newQr.channel')}</label>
          <select id="new-channel" value={fields.channel} onChange={set('channel')}>
            {CHANNELS.map((c) => (
              <option key={c} value={c}>
                {withMeaning('channel', c)}
              </option>
            ))}
          </select>
        </div>
        <TextField
          id="new-reference"
          label={t('newQr.reference')}
          hint={t('newQr.referenceHint')}
          required
          maxLength={17}
          autoComplete="off"
          value={fields.reference}
          onText={setValue('reference')}
          error={problemOf('new-reference')}
        />
        {priced && (
          <fieldset>
            <legend>{t('newQr.amountLegend')}</legend>
            {AMOUNT_FIELDS.map(({ name, label }) => (
              <MoneyField
                key={name}
                id={`new-${name}`}
                label={t(label)}
                maxIntegerDigits={QR_AMOUNT_DIGITS}
                placeholder={name === 'amount' ? '119.000' : '0'}
                value={fields[name]}
                onText={setValue(name)}
                error={problemOf(`new-${name}`)}
              />
            ))}
          </fieldset>
        )}
        {fields.kind === 'dynamic' && (
          <fieldset>
            <legend>{t('newQr.sale')}</legend>
            <div class="field">
              <label for="new-purpose">{t('newQr.purpose')}</label>
              <select id="new-purpose" value={fields.purpose} onChange={set('purpose')}>
                {PURPOSES.map((p) => (
                  <option key={p} value={p}>
                    {withMeaning('purpose', p)}
                  </option>
                ))}
              </select>
            </div>
            <TextField
              id="new-terminal"
              label={t('newQr.terminal')}
              required
              maxLength={25}
              placeholder="CAJA01"
              hint={t('newQr.terminalHint')}
              value={fields.terminal}
              onText={setValue('terminal')}
              error={problemOf('new-terminal')}
            />
          </fieldset>
        )}
        <div class="actions">
          <button type="submit" disabled={action.busy}>
            {t('newQr.create')}
          </button>
          <a href={linkTo('qrcodes')}>{t('newQr.cancel')}</a>
        </div>
        {action.error !== undefined && !taken && (
          <ProblemMessage error={action.error} fields={API_FIELDS} onRetry={() => submit(new Event('submit'))} />
        )}
      </form>
    </>
  );
}
