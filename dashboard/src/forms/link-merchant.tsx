/**
 * Links a merchant the sponsor bank approved (its NIT and name as the bank holds them) as one of the
 * platform's customers: the first step of a new platform.
 */
import { useDashboard } from '../components/context';
import { ProblemMessage } from '../components/problem';
import { TextField } from '../components/text-field';
import { useForm } from '../components/use-form';

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

/** The API's rules, checked before sending: every field is needed, these have a form. */
function check(values: typeof INITIAL): Record<string, string> {
  const problems: Record<string, string> = {};
  const need = (id: string, value: string, rule: RegExp, what: string) => {
    if (!value.trim()) problems[id] = 'This is needed.';
    else if (!rule.test(value.trim())) problems[id] = what;
  };
  need('lm-name', values.business_name, /./, '');
  need('lm-nit', values.nit, /^\d{9}$/, 'The NIT has 9 digits, without its check digit.');
  need('lm-email', values.email, /^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'An e-mail address, e.g. pagos@tienda.co.');
  need('lm-phone', values.phone, /^3\d{9}$/, 'A Colombian mobile number: 10 digits starting with 3.');
  need('lm-line1', values.line_1, /./, '');
  need('lm-city', values.city, /./, '');
  need('lm-state', values.state, /./, '');
  need('lm-post-code', values.post_code, /^\d{6}$/, 'The postal code has 6 digits.');
  need('lm-mcc', values.mcc, /^\d{4}$/, 'The category code (MCC) has 4 digits, e.g. 5411 for a grocery.');
  return problems;
}

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
            mobile_phone_number: v.phone.trim(),
            identification_type: 'NIT',
            identification_number: v.nit.trim(),
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
      `Merchant ${values.business_name.trim()} linked.`,
      onLinked,
    );
  };
  const field = (id: string, label: string, name: keyof typeof INITIAL, extra: object = {}) => (
    <TextField id={id} label={label} value={values[name]} onText={set(name)} error={problemOf(id)} {...extra} />
  );
  return (
    <form class="form" onSubmit={submit} noValidate aria-labelledby="link-merchant">
      <h2 id="link-merchant">Link a merchant</h2>
      <p class="hint">
        The merchant must be approved at the sponsor bank first: its NIT and name as the bank holds them.
      </p>
      {field('lm-name', 'Business name', 'business_name', { autoComplete: 'organization' })}
      {field('lm-nit', 'NIT (9 digits)', 'nit', { inputMode: 'numeric', maxLength: 9 })}
      {field('lm-email', 'E-mail', 'email', { type: 'email', autoComplete: 'email' })}
      {field('lm-phone', 'Mobile phone', 'phone', { type: 'tel', inputMode: 'tel', maxLength: 10 })}
      {field('lm-line1', 'Address', 'line_1', { autoComplete: 'address-line1' })}
      <div class="field-row">
        {field('lm-city', 'City', 'city')}
        {field('lm-state', 'Department', 'state')}
        {field('lm-post-code', 'Postal code', 'post_code', { inputMode: 'numeric', maxLength: 6 })}
      </div>
      {field('lm-mcc', 'Category code (MCC)', 'mcc', { inputMode: 'numeric', maxLength: 4, hint: '5411: grocery' })}
      <div class="actions">
        <button type="submit" disabled={action.busy}>
          Link merchant
        </button>
      </div>
      <p role="status" class="status-line">
        {action.done}
      </p>
      {action.error !== undefined && <ProblemMessage error={action.error} fields={API_FIELDS} />}
    </form>
  );
}
