/**
 * One record read from the API (a detail page's subject), read again on demand after a change, and
 * every few seconds while `changing` says it may still change (a payment waiting to settle).
 */
import { useEffect, useState } from 'preact/hooks';

/** How often a page reads again what is still changing. */
export const REFRESH_MS = 2_000;

export interface RecordState<T> {
  readonly record: T | undefined;
  readonly error: unknown;
  reload(): void;
}

export function useRecord<T>(load: () => Promise<T>, id: string, changing?: (record: T) => boolean): RecordState<T> {
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
  const record = state.record;
  useEffect(() => {
    if (record === undefined || !changing?.(record)) return;
    const timer = setTimeout(() => setReads((n) => n + 1), REFRESH_MS);
    return () => clearTimeout(timer);
  }, [record]);
  return { record, error: state.error, reload: () => setReads((n) => n + 1) };
}
