/**
 * A form that creates something through the API: its values, one Idempotency-Key per request (a
 * retry of the same values is the same request, a change makes another), the page's own checks
 * before anything is sent, and the API's field errors beside the fields (by the form's field ids).
 */
import { useState } from 'preact/hooks';
import { newIdempotencyKey } from './context';
import { fieldProblems } from './problem';
import { useAction, type ActionState } from './use-action';

export interface FormState<F> {
  readonly values: F;
  readonly set: (name: keyof F) => (value: string) => void;
  readonly action: ActionState;
  /** What to correct, by field id: the page's checks, else the API's. */
  readonly problemOf: (id: string) => string | undefined;
  /**
   * Runs the page's checks (`check` answers problems by field id, or nothing); when they pass,
   * `send` with the request's Idempotency-Key; `done` is what the status line says, `then` what follows.
   */
  submit(
    check: (values: F) => Readonly<Record<string, string>>,
    send: (values: F, idempotencyKey: string) => Promise<unknown>,
    done: string,
    then?: () => void,
  ): void;
  reset(): void;
}

export function useForm<F extends Record<string, string>>(
  initial: F,
  /** The API's fields, by the id of the form's field that holds them. */
  apiFields: Readonly<Record<string, string>>,
): FormState<F> {
  const [values, setValues] = useState(initial);
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const [problems, setProblems] = useState<Readonly<Record<string, string>>>({});
  const action = useAction();
  const fromApi = fieldProblems(action.error, apiFields);
  return {
    values,
    action,
    set: (name) => (value) => {
      setValues((previous) => ({ ...previous, [name]: value }));
      setIdempotencyKey(newIdempotencyKey());
    },
    problemOf: (id) => problems[id] ?? fromApi[id],
    submit(check, send, done, then) {
      const found = check(values);
      setProblems(found);
      const first = Object.keys(found)[0];
      // The first field to correct takes the focus, as the browser's own check would.
      if (first) return document.getElementById(first)?.focus();
      action.run(
        () => send(values, idempotencyKey),
        done,
        () => {
          setValues(initial);
          setIdempotencyKey(newIdempotencyKey());
          then?.();
        },
      );
    },
    reset: () => {
      setValues(initial);
      setProblems({});
    },
  };
}
