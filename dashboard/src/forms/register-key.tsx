/** Registers a Bre-B key in the directory for one of the merchant's accounts: what its QR codes carry. */
import type { Account } from '../api';
import { withMeaning } from '../codes';
import { useDashboard } from '../components/context';
import { FormEnd } from '../components/form-end';
import { TextField } from '../components/text-field';
import { useForm } from '../components/use-form';
import { t } from '../i18n';

const KEY_TYPES = ['ALPHA', 'PHONE', 'EMAIL', 'ID', 'BCODE'] as const;
type KeyType = (typeof KEY_TYPES)[number];

const API_FIELDS = {
  account_id: 'rk-account',
  'key.key_value': 'rk-value',
  'key.key_type': 'rk-type',
  display_name: 'rk-name',
};

/** What each type of key looks like, as the API checks it (shared/qr/key-formats.ts). */
const FORMATS: Readonly<Record<KeyType, { rule: RegExp; example: string }>> = {
  ALPHA: { rule: /^@[A-Za-z0-9]{5,20}$/, example: '@tienda42' },
  PHONE: { rule: /^(\+?57)?3[0-9]{9}$/, example: '3001234567' },
  EMAIL: { rule: /^[^\s@]{1,30}@[A-Za-z0-9.-]{1,61}$/, example: 'pagos@tienda.co' },
  ID: { rule: /^[A-Za-z0-9]{1,18}$/, example: '900123456' },
  BCODE: { rule: /^00[0-9]{8}$/, example: '0012345678' },
};

export function RegisterKeyForm({
  accounts,
  onRegistered,
}: {
  readonly accounts: readonly Account[];
  readonly onRegistered: () => void;
}) {
  const { api } = useDashboard();
  const form = useForm({ account: accounts[0]?.id ?? '', type: 'ALPHA', value: '', name: '' }, API_FIELDS);
  const { values } = form;
  const format = FORMATS[values.type as KeyType];
  const submit = (event: Event) => {
    event.preventDefault();
    form.submit(
      (v) => ({
        ...(v.account ? {} : { 'rk-account': t('form.keyAccountRule') }),
        ...(format.rule.test(v.value.trim())
          ? {}
          : { 'rk-value': t('form.keyRule', { type: v.type, example: format.example }) }),
      }),
      (v, key) =>
        api.registerKey(
          {
            account_id: v.account,
            key: { key_type: v.type as KeyType, key_value: v.value.trim() },
            ...(v.name.trim() ? { display_name: v.name.trim() } : {}),
          },
          key,
        ),
      t('form.keyRegistered', { key: values.value.trim() }),
      onRegistered,
    );
  };
  return (
    <form class="form inline-form" onSubmit={submit} noValidate aria-labelledby="register-key">
      <h3 id="register-key">{t('form.registerKey')}</h3>
      <div class="field">
        <label for="rk-account">{t('form.keyAccount')}</label>
        <select id="rk-account" value={values.account} onChange={(e) => form.set('account')(e.currentTarget.value)}>
          {accounts.map((a) => (
            <option key={a.id} value={a.id}>
              {a.account_type} {a.account_number}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="rk-type">{t('form.keyType')}</label>
        <select id="rk-type" value={values.type} onChange={(e) => form.set('type')(e.currentTarget.value)}>
          {KEY_TYPES.map((type) => (
            <option key={type} value={type}>
              {withMeaning('keyType', type)}
            </option>
          ))}
        </select>
      </div>
      <TextField
        id="rk-value"
        label={t('form.key')}
        hint={t('form.keyHint', { example: format.example })}
        autoComplete="off"
        value={values.value}
        onText={form.set('value')}
        error={form.problemOf('rk-value')}
      />
      <FormEnd label={t('form.registerKeyButton')} action={form.action} fields={API_FIELDS} />
    </form>
  );
}
