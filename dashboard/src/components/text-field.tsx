/** A labelled text input of a form, with a hint read with it when there is one. */

export interface TextFieldProps {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly onText: (value: string) => void;
  readonly hint?: string;
  readonly required?: boolean;
  readonly maxLength?: number;
  /** What the browser checks before the form is sent (the API checks again). */
  readonly pattern?: string;
  readonly placeholder?: string;
  /** `decimal` brings up a keypad with a decimal point on phones. */
  readonly inputMode?: 'decimal';
}

export function TextField({ id, label, hint, onText, ...input }: TextFieldProps) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        {...input}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onInput={(e) => onText(e.currentTarget.value)}
      />
      {hint && (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
    </div>
  );
}
