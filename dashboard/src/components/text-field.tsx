/** A labelled input of a form, with its hint and its error read with it. */
import type { ComponentChildren } from 'preact';

export interface TextFieldProps {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly onText: (value: string) => void;
  readonly hint?: ComponentChildren;
  /** What is wrong with the value, said beside it (the form's check, or the API's). */
  readonly error?: string | undefined;
  readonly required?: boolean;
  readonly maxLength?: number;
  /** What the browser checks before the form is sent (the API checks again). */
  readonly pattern?: string;
  readonly placeholder?: string;
  readonly type?: 'text' | 'email' | 'tel' | 'url';
  /** `decimal` and `numeric` bring up a keypad on phones. */
  readonly inputMode?: 'decimal' | 'numeric' | 'email' | 'tel' | 'url';
  readonly autoComplete?: string;
}

export function TextField({ id, label, hint, error, onText, type = 'text', ...input }: TextFieldProps) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        type={type as 'text'}
        {...input}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        onInput={(e) => onText(e.currentTarget.value)}
      />
      {hint && (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
