/**
 * A list's filters: labelled selects whose first option means "any", and days of creation. A change
 * applies at once (the list starts a new walk).
 */
import { useState } from 'preact/hooks';

export interface Choice {
  readonly value: string;
  readonly label: string;
}

export interface FilterSpec {
  /** The API's query parameter. */
  readonly name: string;
  readonly label: string;
  /** The values to choose from; none: a day (YYYY-MM-DD, a UTC day for the API). */
  readonly choices?: readonly (Choice | string)[];
}

export type FilterValues = Readonly<Record<string, string>>;

/** The filters' values, every one empty (any) to start with. */
export function useFilters(specs: readonly FilterSpec[]): [FilterValues, (name: string, value: string) => void] {
  const [values, setValues] = useState<FilterValues>(() => Object.fromEntries(specs.map((s) => [s.name, ''])));
  return [values, (name, value) => setValues((previous) => ({ ...previous, [name]: value }))];
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
              <option value="">Any</option>
              {spec.choices.map((choice) => {
                const { value, label } = typeof choice === 'string' ? { value: choice, label: choice } : choice;
                return (
                  <option key={value} value={value}>
                    {label}
                  </option>
                );
              })}
            </select>
          ) : (
            <input
              id={idOf(spec)}
              type="date"
              value={props.values[spec.name]}
              onChange={(e) => props.onChange(spec.name, e.currentTarget.value)}
            />
          )}
        </div>
      ))}
    </form>
  );
}
