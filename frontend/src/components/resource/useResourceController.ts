import { useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { Query } from '../../lib/api';
import { t } from '../../lib/i18n';
import { hasActiveFilters, toApiQuery, toFilterQuery, withFilters, withPage, withPageSize, withSort, type ListQuery } from '../../lib/listQuery';
import { apiFilterValues } from '../FilterPanel';
import { showToast } from '../Toast';
import type { ResourceFilter } from './types';
import { useListQueryState, useLocalListQueryState } from './useListQueryState';
import { useListData, type ListState } from './useRemoteData';

/** Where a list's rows come from: its list call, and the call that takes its filters. */
export interface ListSource {
  basePath: string;
  /** The list call when it is not `basePath`. */
  listPath?: string;
  /** The call with filters when it is not `{basePath}/filter`. */
  filterPath?: string;
  filters?: readonly ResourceFilter[];
  /** Where page, size, sort and filters live: the URL (a screen's one list), or the component (one of several lists). */
  state?: 'url' | 'local';
}

/** Everything about a list but its looks: what is asked, what came, what is chosen, and the moves. */
export interface ResourceController<Row, Answer = unknown> {
  query: ListQuery;
  filtered: boolean;
  list: ListState<Row, Answer>;
  /** The filters under their API names, as the export call takes them. */
  filterQuery: Query;
  sortBy: (field: string) => void;
  goToPage: (page: number) => void;
  setPageSize: (size: number) => void;
  applyFilters: (values: Record<string, string>) => void;
  removeFilter: (name: string) => void;
  clearFilters: () => void;
  /** Kept across pages, sizes and sorts; cleared (and the user told) when a filter changes. */
  selected: Set<number>;
  setSelected: (next: Set<number> | ((current: Set<number>) => Set<number>)) => void;
  reload: () => void;
  /** After a change: the list is read again and the confirmation shown in a toast. */
  mutated: (confirmation?: string) => void;
}

/**
 * The headless half of a list screen: page, size, sort and filters in the URL, the page of rows
 * for them (read again on `reload`), the selection, and the step back from a page a delete
 * emptied. `ResourcePage` renders it; a screen with another layout can use it alone.
 */
export function useResourceController<Row extends { id: number }, Answer = unknown>(source: ListSource): ResourceController<Row, Answer> {
  const filters = useMemo(() => source.filters ?? [], [source.filters]);
  const filterNames = useMemo(() => filters.map((filter) => filter.name), [filters]);
  const filterParams = useMemo(() => Object.fromEntries(filters.map((filter) => [filter.name, filter.param])), [filters]);

  // Both are always called (hooks run in a fixed order); the source says which one holds the list.
  const inUrl = useListQueryState(filterNames);
  const inComponent = useLocalListQueryState();
  const [query, setQuery] = source.state === 'local' ? inComponent : inUrl;
  const filtered = hasActiveFilters(query);
  // What the list and export calls send: range bounds as instants of the browser's days.
  const sentQuery = { ...query, filters: apiFilterValues(filters, query.filters) };
  const [reloadToken, reload] = useReducer((count: number) => count + 1, 0);
  const list = useListData<Row, Answer>(
    filtered ? (source.filterPath ?? `${source.basePath}/filter`) : (source.listPath ?? source.basePath),
    toApiQuery(sentQuery, filterParams),
    reloadToken,
  );

  const [selected, setSelected] = useState<Set<number>>(new Set());
  // The selection is kept across pages, page sizes and sorts (ids stay ids), but a
  // new filter may hide what was chosen: it is cleared then, and the user told.
  const filterKey = JSON.stringify(query.filters);
  const previousFilterKey = useRef(filterKey);
  useEffect(() => {
    if (previousFilterKey.current === filterKey) return;
    previousFilterKey.current = filterKey;
    // Told from the effect, not from a state updater, which React may run while rendering.
    if (selected.size > 0) {
      setSelected(new Set());
      showToast(t('table.selectionCleared'));
    }
  }, [filterKey, selected]);

  // A delete can empty the last page: step back to the new last page.
  useEffect(() => {
    if (list.status === 'ready' && list.rows.length === 0 && list.totalCount > 0 && query.page > 1) {
      setQuery(withPage(query, Math.ceil(list.totalCount / query.size)), { replace: true });
    }
  }, [list, query, setQuery]);

  return {
    query,
    filtered,
    list,
    filterQuery: toFilterQuery(sentQuery, filterParams),
    sortBy: (field) => setQuery(withSort(query, field)),
    goToPage: (page) => setQuery(withPage(query, page)),
    setPageSize: (size) => setQuery(withPageSize(query, size)),
    applyFilters: (values) => setQuery(withFilters(query, values)),
    removeFilter: (name) => setQuery(withFilters(query, { ...query.filters, [name]: '' })),
    clearFilters: () => setQuery(withFilters(query, {})),
    selected,
    setSelected,
    reload,
    mutated: (confirmation) => {
      reload();
      if (confirmation) showToast(confirmation);
    },
  };
}
