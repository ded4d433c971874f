/**
 * A change a person asks for (delete, suspend, pay...): one at a time, its refusal kept to be shown
 * beside the button, and what it achieved said in a status line.
 */
import { useState } from 'preact/hooks';

export interface ActionState {
  readonly busy: boolean;
  readonly error: unknown;
  readonly done: string | undefined;
  /**
   * Starts `work` and returns: `done` is what the status line says once it succeeded, and `then` runs
   * after it (to read the page again, say). A failure becomes `error`, shown beside the button.
   */
  run(work: () => Promise<unknown>, done: string, then?: () => void): void;
}

export function useAction(): ActionState {
  const [state, setState] = useState<{ busy: boolean; error?: unknown; done?: string }>({ busy: false });
  return {
    ...state,
    error: state.error,
    done: state.done,
    run(work, done, then) {
      setState({ busy: true });
      // A browser's event handler is not awaited: every failure of the work is received here, or nowhere.
      Promise.resolve()
        .then(work)
        .then(
          () => {
            setState({ busy: false, done });
            then?.();
          },
          (error: unknown) => setState({ busy: false, error }),
        );
    },
  };
}
