/** Links one of the merchant's accounts that the sponsor bank approved for its NIT: where its payments land. */
import { useDashboard } from '../components/context';
import { FormEnd } from '../components/form-end';
import { TextField } from '../components/text-field';
import { useForm } from '../components/use-form';
import { t } from '../i18n';

const API_FIELDS = { number: 'la-number' };

export function LinkAccountForm({
  customerId,
  onLinked,
}: {
  readonly customerId: string;
  readonly onLinked: () => void;
}) {
  const { api } = useDashboard();
  const form = useForm({ number: '' }, API_FIELDS);
  const submit = (event: Event) => {
    event.preventDefault();
    form.submit(
      (v): Record<string, string> => (/^\d{4,20}$/.test(v.number.trim()) ? {} : { 'la-number': t('form.accountRule') }),
      (v, key) => api.linkAccount(customerId, v.number.trim(), key),
      t('form.accountLinked', { number: form.values.number.trim() }),
      onLinked,
    );
  };
  return (
    <form class="form inline-form" onSubmit={submit} noValidate aria-labelledby="link-account">
      <h3 id="link-account">{t('form.linkAccount')}</h3>
      <TextField
        id="la-number"
        label={t('form.accountNumber')}
        hint={t('form.accountHint')}
        inputMode="numeric"
        maxLength={20}
        value={form.values.number}
        onText={form.set('number')}
        error={form.problemOf('la-number')}
      />
      <FormEnd label={t('form.linkAccountButton')} action={form.action} fields={API_FIELDS} />
    </form>
  );
}
