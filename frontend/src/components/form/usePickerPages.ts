import { useCallback, useEffect, useState } from 'react';
import type { PickerLoader, PickerOption } from './types';
import { useLatestLoad } from './useLatestLoad';

export const PICKER_PAGE_SIZE = 30;
const SEARCH_PAUSE_MS = 300;

interface PickerState {
  items: PickerOption[];
  total: number;
  loading: boolean;
  failed: boolean;
}

/**
 * Pages through a server-side list 30 items at a time: the first page loads
 * when the picker is first used or the search changes, the next one when the
 * list is scrolled to its end.
 */
export function usePickerPages(load: PickerLoader) {
  const [state, setState] = useState<PickerState>({ items: [], total: 0, loading: false, failed: false });
  const [search, setSearch] = useState<string | null>(null);
  const latest = useLatestLoad();

  const fetchPage = useCallback(
    (term: string, skip: number) => {
      setState((previous) => ({ ...previous, loading: true, failed: false }));
      latest.run(
        (signal) => load(term, skip, PICKER_PAGE_SIZE, signal),
        ({ items, total }) =>
          setState((previous) => ({ items: skip === 0 ? items : [...previous.items, ...items], total, loading: false, failed: false })),
        () => setState((previous) => ({ ...previous, loading: false, failed: true })),
      );
    },
    [load, latest],
  );

  useEffect(() => {
    if (search === null) return;
    const timer = setTimeout(() => fetchPage(search, 0), search ? SEARCH_PAUSE_MS : 0);
    return () => clearTimeout(timer);
  }, [search, fetchPage]);

  const loadMore = () => {
    if (!state.loading && state.items.length < state.total) fetchPage(search ?? '', state.items.length);
  };

  return { ...state, search: search ?? '', setSearch, loadMore };
}
