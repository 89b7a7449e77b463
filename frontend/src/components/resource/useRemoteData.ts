import { useEffect, useState } from 'react';
import { api, errorMessage, type Query } from '../../lib/api';
import { contentLanguage } from '../../lib/i18n';
import type { LoadStatus } from '../DataTable';

export interface ListState<Row, Answer = unknown> {
  rows: Row[];
  totalCount: number;
  status: LoadStatus;
  /** Whether a count has arrived yet: before the first answer there is none to show (not "0 campaigns"). */
  counted: boolean;
  /** The last whole answer, for a list whose call answers more than the page (a report's counts). */
  answer: Answer | null;
  /** Why the last call failed (the server's message, or the lost connection). */
  error?: string;
}

/**
 * Loads one page whenever the path, the query or `reloadToken` changes; older
 * answers are aborted. A failure empties the rows and the count.
 */
export function useListData<Row, Answer = unknown>(path: string, query: Query, reloadToken: number): ListState<Row, Answer> {
  const queryKey = JSON.stringify(query);
  // Localised names (categories, campaigns) come in the header's content language: a switch reloads the page.
  const language = contentLanguage.value;
  const [state, setState] = useState<ListState<Row, Answer>>({ rows: [], totalCount: 0, status: 'loading', counted: false, answer: null });
  useEffect(() => {
    const controller = new AbortController();
    setState((previous) => ({ ...previous, status: 'loading' }));
    api.list<Row>(path, JSON.parse(queryKey) as Query, controller.signal).then(
      (response) => setState({ rows: response.data, totalCount: response.totalCount, status: 'ready', counted: true, answer: response as Answer }),
      (failure: unknown) => {
        if (!controller.signal.aborted) setState({ rows: [], totalCount: 0, status: 'error', counted: false, answer: null, error: errorMessage(failure) });
      },
    );
    return () => controller.abort();
  }, [path, queryKey, reloadToken, language]);
  return state;
}

/**
 * Fetches one record (`GET path`) while `path` is set; `data` stays null until
 * it arrives. Clearing the path forgets the record, so opening the same one
 * again (after an edit) shows it fresh rather than as it was. A new
 * `reloadToken` reads it again, keeping the old data on show meanwhile.
 */
export function useRecord<T>(path: string | null, reloadToken = 0): { data: T | null; error: string | null } {
  const [state, setState] = useState<{ path: string | null; data: T | null; error: string | null }>({ path: null, data: null, error: null });
  useEffect(() => {
    if (!path) {
      setState({ path: null, data: null, error: null });
      return;
    }
    const controller = new AbortController();
    api.record<T>(path, controller.signal).then(
      (data) => setState({ path, data, error: null }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ path, data: null, error: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [path, reloadToken]);
  return state.path === path ? state : { data: null, error: null };
}
