/**
 * A list's filters: labelled selects whose first option means "any", days of Bogotá typed as
 * Colombia writes them (sent as the day's UTC bounds), amounts in pesos, and searches. A change
 * applies at once (the list starts a new walk); a day or an amount that cannot be read is said under
 * its field and not sent.
 */
import { useRef, useState } from 'preact/hooks';
import { dayBounds, parseDay } from '../days';
import { formatCop, formatDay } from '../format';
import { parseCop } from '../money';
import { t } from '../i18n';

export interface Choice {
  readonly value: string;
  readonly label: string;
}

export interface FilterSpec {
  /** The API's query parameter; for a day, the prefix of its bounds (`created`: created_from, created_to). */
  readonly name: string;
  readonly label: string;
  /** The values to choose from. */
  readonly choices?: readonly (Choice | string)[];
  /** `day`: a day of Bogotá; `amount`: pesos as Colombia writes them; `text`: what is typed, sent as `toQuery` makes it. */
  readonly kind?: 'day' | 'amount' | 'text';
  readonly toQuery?: (value: string) => Readonly<Record<string, string>>;
  /** Said under a search box: what it finds. */
  readonly hint?: string;
}

export type FilterValues = Readonly<Record<string, string>>;

/** The filters' values, every one empty (any) to start with. */
export function useFilters(specs: readonly FilterSpec[]): [FilterValues, (name: string, value: string) => void] {
  const [values, setValues] = useState<FilterValues>(() => Object.fromEntries(specs.map((s) => [s.name, ''])));
  return [values, (name, value) => setValues((previous) => ({ ...previous, [name]: value }))];
}

/** The list's query parameters the filters' values make; a day not understood sends nothing. */
export function queryOf(specs: readonly FilterSpec[], values: FilterValues): Record<string, string> {
  const query: Record<string, string> = {};
  for (const spec of specs) {
    const value = values[spec.name]?.trim() ?? '';
    if (value === '') continue;
    if (spec.kind === 'day') {
      const parsed = parseDay(value);
      if (!parsed.ok) continue;
      const { from, to } = dayBounds(parsed.day);
      query[`${spec.name}_from`] = from;
      query[`${spec.name}_to`] = to;
    } else if (spec.kind === 'amount') {
      const parsed = parseCop(value);
      if (parsed.ok) query[spec.name] = parsed.value;
    } else if (spec.toQuery) Object.assign(query, spec.toQuery(value));
    else query[spec.name] = value;
  }
  return query;
}

/**
 * What is typed in a field whose value applies on change (Enter, or leaving the field), kept apart
 * from the applied value. Bound to the applied value alone, a field re-rendered while it was being
 * typed in (a list's answer arriving) applied nothing on Enter (the browser test "a day typed while
 * the list is still answering"). A new applied value replaces the typing in the same render: an
 * effect, run later, could put an older value back over newer typing.
 */
function useTyped(applied: string): [string, (text: string) => void] {
  const typed = useRef(applied);
  const seen = useRef(applied);
  if (seen.current !== applied) {
    seen.current = applied;
    typed.current = applied;
  }
  // The input already shows what is typed: kept for the next render, with nothing to render now.
  return [typed.current, (text) => (typed.current = text)];
}

/** A search box: what is typed applies on change; `hint` says what it finds. */
function SearchField(props: { id: string; value: string; hint?: string; onChange: (value: string) => void }) {
  const { id, value, hint, onChange } = props;
  const [typed, setTyped] = useTyped(value);
  return (
    <>
      <input
        id={id}
        type="search"
        value={typed}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onInput={(e) => setTyped(e.currentTarget.value)}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
      {hint && (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
    </>
  );
}

/** What a field understood of its text: its words under the field, or why it could not read it. */
type Understood = { readonly ok: true; readonly said: string } | { readonly ok: false; readonly error: string };

/**
 * A field whose text is read as it applies, with what it understood (or why not) said under it:
 * `hint` while it is empty; `id` names the input for its label.
 */
function ReadBackField(props: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  read: (text: string) => Understood;
  hint: string;
  inputMode: 'numeric' | 'decimal';
  size: number;
  placeholder?: string;
}) {
  const { id, value, onChange } = props;
  const understood = value.trim() ? props.read(value) : undefined;
  const [typed, setTyped] = useTyped(value);
  return (
    <>
      <input
        id={id}
        inputMode={props.inputMode}
        placeholder={props.placeholder}
        autoComplete="off"
        size={props.size}
        value={typed}
        onInput={(e) => setTyped(e.currentTarget.value)}
        aria-invalid={understood?.ok === false ? true : undefined}
        aria-describedby={`${id}-said`}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
      <p id={`${id}-said`} class={understood?.ok === false ? 'field-error' : 'hint'} aria-live="polite">
        {understood === undefined ? props.hint : understood.ok ? understood.said : understood.error}
      </p>
    </>
  );
}

type FieldProps = { id: string; value: string; onChange: (value: string) => void };

/** An amount in pesos (119.000,00). */
function AmountField(props: FieldProps) {
  const read = (text: string): Understood => {
    const parsed = parseCop(text);
    return parsed.ok ? { ok: true, said: formatCop(parsed.value) } : parsed;
  };
  return <ReadBackField {...props} read={read} hint={t('filter.amountHint')} inputMode="decimal" size={12} />;
}

/** A day of Bogotá typed dd/mm/yyyy. */
export function DayField(props: FieldProps) {
  const read = (text: string): Understood => {
    const parsed = parseDay(text);
    return parsed.ok ? { ok: true, said: t('day.understood', { day: formatDay(parsed.day) }) } : parsed;
  };
  return (
    <ReadBackField
      {...props}
      read={read}
      hint={t('day.hint')}
      inputMode="numeric"
      size={11}
      placeholder={t('day.placeholder')}
    />
  );
}

export function Filters(props: {
  /** Names the form for screen readers ("Filter QR codes"). */
  readonly label: string;
  readonly specs: readonly FilterSpec[];
  readonly values: FilterValues;
  readonly onChange: (name: string, value: string) => void;
}) {
  const idOf = (spec: FilterSpec) => `${props.label}-${spec.name}`.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return (
    <form class="filters" role="search" aria-label={props.label} onSubmit={(e) => e.preventDefault()}>
      {props.specs.map((spec) => (
        <div class="field" key={spec.name}>
          <label for={idOf(spec)}>{spec.label}</label>
          {spec.choices ? (
            <select
              id={idOf(spec)}
              value={props.values[spec.name]}
              onChange={(e) => props.onChange(spec.name, e.currentTarget.value)}
            >
              <option value="">{t('filter.any')}</option>
              {spec.choices.map((choice) => {
                const { value, label } = typeof choice === 'string' ? { value: choice, label: choice } : choice;
                return (
                  <option key={value} value={value}>
                    {label}
                  </option>
                );
              })}
            </select>
          ) : spec.kind === 'amount' ? (
            <AmountField
              id={idOf(spec)}
              value={props.values[spec.name] ?? ''}
              onChange={(value) => props.onChange(spec.name, value)}
            />
          ) : spec.kind === 'day' ? (
            <DayField
              id={idOf(spec)}
              value={props.values[spec.name] ?? ''}
              onChange={(value) => props.onChange(spec.name, value)}
            />
          ) : (
            <SearchField
              id={idOf(spec)}
              value={props.values[spec.name] ?? ''}
              {...(spec.hint ? { hint: spec.hint } : {})}
              onChange={(value) => props.onChange(spec.name, value)}
            />
          )}
        </div>
      ))}
    </form>
  );
}
