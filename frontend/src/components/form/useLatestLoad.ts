import { useCallback, useEffect, useMemo, useRef } from 'react';

/**
 * The one loading effect of the server-fed controls (pickers, dependent selects): each load aborts
 * the one before it, only the latest answer or failure is delivered, and nothing is delivered after
 * the control unmounts.
 */
export function useLatestLoad() {
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const cancel = useCallback(() => controller.current?.abort(), []);
  const run = useCallback(<T,>(load: (signal: AbortSignal) => Promise<T>, done: (value: T) => void, failed: () => void) => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    load(current.signal).then(
      (value) => {
        if (!current.signal.aborted) done(value);
      },
      () => {
        if (!current.signal.aborted) failed();
      },
    );
  }, []);
  // One object for the control's life, so effects that depend on it do not run again each render.
  return useMemo(() => ({ run, cancel }), [run, cancel]);
}
