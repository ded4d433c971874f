/**
 * An amount in pesos, typed as people type it (119000, 119.000, 119.000,00, 119000.00): the field
 * says at once what it understood, or why it cannot read it (money.ts).
 */
import { formatCop } from '../format';
import { parseCop } from '../money';
import { TextField } from './text-field';
import { t } from '../i18n';

export function MoneyField(props: {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly onText: (value: string) => void;
  /** At most this many digits before the cents (the API's limit for the field). */
  readonly maxIntegerDigits?: number;
  /** The API's refusal of the field, in words. */
  readonly error?: string | undefined;
  readonly placeholder?: string;
}) {
  const parsed = props.value.trim() === '' ? undefined : parseCop(props.value, props.maxIntegerDigits);
  const understood = parsed?.ok ? t('money.understood', { amount: formatCop(parsed.value) }) : undefined;
  return (
    <TextField
      id={props.id}
      label={props.label}
      value={props.value}
      onText={props.onText}
      required
      inputMode="decimal"
      autoComplete="off"
      placeholder={props.placeholder ?? '119.000'}
      hint={<span aria-live="polite">{understood ?? t('money.hint')}</span>}
      error={parsed && !parsed.ok ? parsed.error : props.error}
    />
  );
}
