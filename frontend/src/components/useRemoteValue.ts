import { useEffect, useState } from 'react';
import { errorMessage, request, type Query } from '../lib/api';
import { contentLanguage } from '../lib/i18n';

export type RemoteValue<T> =
  | { status: 'loading'; data?: T }
  | { status: 'ready'; data: T }
  | { status: 'error'; message: string };

/**
 * `GET path?query` whenever the path, the query or the content language
 * changes (names of categories and campaigns come in it); an older answer is
 * aborted. While a new answer loads, the last one stays in `data`, so a chart
 * keeps its picture instead of flashing empty. A failure carries the server's
 * message (or "We've lost the connection").
 */
export function useRemoteValue<T>(path: string, query: Query = {}): RemoteValue<T> {
  const queryKey = JSON.stringify(query);
  const language = contentLanguage.value;
  const [state, setState] = useState<RemoteValue<T>>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    setState((previous) => ({ status: 'loading', data: previous.status === 'error' ? undefined : previous.data }));
    request<T>(path, { query: JSON.parse(queryKey) as Query, signal: controller.signal, localized: true }).then(
      (data) => setState({ status: 'ready', data }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', message: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [path, queryKey, language]);
  return state;
}

/** The part of a remote value that one card shows (the partners of `GET dashboard`), in the same state. */
export function pickRemote<T, U>(value: RemoteValue<T>, pick: (data: T) => U): RemoteValue<U> {
  if (value.status === 'error') return value;
  if (value.status === 'ready') return { status: 'ready', data: pick(value.data) };
  return { status: 'loading', data: value.data === undefined ? undefined : pick(value.data) };
}
