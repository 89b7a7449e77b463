import { useCallback, useMemo, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { defaultListQuery, parseListQuery, serializeListQuery, type ListQuery } from '../../lib/listQuery';

/** The list's page, size, sort and filters, read from and written to the URL query string. */
export function useListQueryState(filterNames: readonly string[]): [ListQuery, (next: ListQuery, options?: { replace?: boolean }) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const namesKey = filterNames.join('\n');
  const query = useMemo(() => parseListQuery(search, namesKey ? namesKey.split('\n') : []), [search, namesKey]);
  const setQuery = useCallback(
    (next: ListQuery, options?: { replace?: boolean }) => {
      const queryString = serializeListQuery(next);
      navigate(queryString ? `${location}?${queryString}` : location, options);
    },
    [location, navigate],
  );
  return [query, setQuery];
}

/** The same, kept in the component: for a list that is one of several on a screen (a report's tab). */
export function useLocalListQueryState(): [ListQuery, (next: ListQuery) => void] {
  const [query, setQuery] = useState<ListQuery>(defaultListQuery);
  return [query, setQuery];
}
