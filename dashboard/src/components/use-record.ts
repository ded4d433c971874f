/** One record read from the API (a detail page's subject), read again on demand after a change. */
import { useEffect, useState } from 'preact/hooks';

export interface RecordState<T> {
  readonly record: T | undefined;
  readonly error: unknown;
  reload(): void;
}

export function useRecord<T>(load: () => Promise<T>, id: string): RecordState<T> {
  const [reads, setReads] = useState(0);
  const [state, setState] = useState<{ record?: T; error?: unknown }>({});
  useEffect(() => {
    let live = true;
    load().then(
      (record) => live && setState({ record }),
      (error: unknown) => live && setState({ error }),
    );
    return () => {
      live = false;
    };
    // The record is named by its id.
  }, [id, reads]);
  return { record: state.record, error: state.error, reload: () => setReads((n) => n + 1) };
}
