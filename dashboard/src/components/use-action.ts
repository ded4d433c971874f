/**
 * A change a person asks for (delete, suspend, pay...): one at a time, its refusal kept to be shown
 * beside the button, and what it achieved said in a status line.
 */
import { useState } from 'preact/hooks';

export interface ActionState {
  readonly busy: boolean;
  readonly error: unknown;
  readonly done: string | undefined;
  /** Runs `work`; `done` is what the status line says once it succeeded. */
  run(work: () => Promise<unknown>, done: string): Promise<boolean>;
}

export function useAction(): ActionState {
  const [state, setState] = useState<{ busy: boolean; error?: unknown; done?: string }>({ busy: false });
  return {
    ...state,
    error: state.error,
    done: state.done,
    async run(work, done) {
      setState({ busy: true });
      try {
        await work();
        setState({ busy: false, done });
        return true;
      } catch (error) {
        setState({ busy: false, error });
        return false;
      }
    },
  };
}
