/**
 * Links a merchant the sponsor bank approved (its NIT and name as the bank holds them) as one of the
 * platform's customers: the first step of a new platform.
 */
import { parseMobilePhone, parseNit } from '../colombian-numbers';
import { useDashboard } from '../components/context';
import { FormEnd } from '../components/form-end';
import { TextField } from '../components/text-field';
import { useForm } from '../components/use-form';
import { t } from '../i18n';

const INITIAL = {
  business_name: '',
  nit: '',
  email: '',
  phone: '',
  line_1: '',
  city: '',
  state: '',
  post_code: '',
  mcc: '',
};

const API_FIELDS = {
  business_name: 'lm-name',
  identification_number: 'lm-nit',
  email: 'lm-email',
  mobile_phone_number: 'lm-phone',
  'address.line_1': 'lm-line1',
  'address.city': 'lm-city',
  'address.state': 'lm-state',
  'address.post_code': 'lm-post-code',
  merchant_category_code: 'lm-mcc',
};

/**
 * The API's rules, checked before sending: every field is needed, these have a form. The NIT and the
 * phone are taken as Colombians type them (colombian-numbers.ts) and sent as the API writes them.
 */
function check(values: typeof INITIAL): Record<string, string> {
  const problems: Record<string, string> = {};
  const need = (id: string, value: string, rule: RegExp, what: string) => {
    if (!value.trim()) problems[id] = t('field.needed');
    else if (!rule.test(value.trim())) problems[id] = what;
  };
  need('lm-name', values.business_name, /./, '');
  const nit = parseNit(values.nit);
  if (!values.nit.trim()) problems['lm-nit'] = t('field.needed');
  else if (!nit.ok)
    problems['lm-nit'] =
      nit.problem === 'checkDigit' ? t('form.nitCheckDigit', { digit: nit.expected }) : t('form.nitRule');
  need('lm-email', values.email, /^[^\s@]+@[^\s@]+\.[^\s@]+$/, t('form.emailRule'));
  if (!values.phone.trim()) problems['lm-phone'] = t('field.needed');
  else if (!parseMobilePhone(values.phone).ok) problems['lm-phone'] = t('form.phoneRule');
  need('lm-line1', values.line_1, /./, '');
  need('lm-city', values.city, /./, '');
  need('lm-state', values.state, /./, '');
  need('lm-post-code', values.post_code, /^\d{6}$/, t('form.postCodeRule'));
  need('lm-mcc', values.mcc, /^\d{4}$/, t('form.mccRule'));
  return problems;
}

/** The value of a number the check above passed. */
const typedValue = (typed: ReturnType<typeof parseNit>): string => (typed.ok ? typed.value : '');

export function LinkMerchantForm({ onLinked }: { readonly onLinked: () => void }) {
  const { api } = useDashboard();
  const form = useForm(INITIAL, API_FIELDS);
  const { values, set, problemOf, action } = form;
  const submit = (event: Event) => {
    event.preventDefault();
    form.submit(
      check,
      (v, key) =>
        api.linkMerchant(
          {
            type: 'BUSINESS',
            business_name: v.business_name.trim(),
            email: v.email.trim(),
            mobile_phone_number: typedValue(parseMobilePhone(v.phone)),
            identification_type: 'NIT',
            identification_number: typedValue(parseNit(v.nit)),
            address: {
              line_1: v.line_1.trim(),
              city: v.city.trim(),
              state: v.state.trim(),
              post_code: v.post_code.trim(),
              country: 'CO',
            },
            merchant_category_code: v.mcc.trim(),
          },
          key,
        ),
      t('form.merchantLinked', { name: values.business_name.trim() }),
      onLinked,
    );
  };
  const field = (id: string, label: string, name: keyof typeof INITIAL, extra: object = {}) => (
    <TextField id={id} label={label} value={values[name]} onText={set(name)} error={problemOf(id)} {...extra} />
  );
  return (
    <form class="form" onSubmit={submit} noValidate aria-labelledby="link-merchant">
      <h2 id="link-merchant">{t('form.linkMerchant')}</h2>
      <p class="hint">{t('form.merchantHint')}</p>
      {field('lm-name', t('form.businessName'), 'business_name', { autoComplete: 'organization' })}
      {field('lm-nit', t('form.nit'), 'nit', { maxLength: 20, hint: t('form.nitHint') })}
      {field('lm-email', t('form.email'), 'email', { type: 'email', autoComplete: 'email' })}
      {field('lm-phone', t('form.phone'), 'phone', { type: 'tel', inputMode: 'tel', maxLength: 20 })}
      {field('lm-line1', t('form.address'), 'line_1', { autoComplete: 'address-line1' })}
      <div class="field-row">
        {field('lm-city', t('form.city'), 'city')}
        {field('lm-state', t('form.department'), 'state')}
        {field('lm-post-code', t('form.postCode'), 'post_code', { inputMode: 'numeric', maxLength: 6 })}
      </div>
      {field('lm-mcc', t('form.mcc'), 'mcc', { inputMode: 'numeric', maxLength: 4, hint: t('form.mccHint') })}
      <FormEnd label={t('form.linkMerchantButton')} action={action} fields={API_FIELDS} />
    </form>
  );
}
