import type { Query } from './api';

export const PAGE_SIZES = [5, 10, 25] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const DEFAULT_SORT_FIELD = 'id';

/** Where a list is: kept in the URL so reload, back and shared links land on the same rows. */
export interface ListQuery {
  page: number;
  size: number;
  sort: string;
  ascending: boolean;
  filters: Record<string, string>;
}

export const defaultListQuery = (): ListQuery => ({
  page: 1,
  size: DEFAULT_PAGE_SIZE,
  sort: DEFAULT_SORT_FIELD,
  ascending: false,
  filters: {},
});

function positiveInt(value: string | null, fallback: number): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}

export function parseListQuery(search: string, filterNames: readonly string[]): ListQuery {
  const params = new URLSearchParams(search);
  const size = positiveInt(params.get('size'), DEFAULT_PAGE_SIZE);
  const filters: Record<string, string> = {};
  for (const name of filterNames) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  return {
    page: positiveInt(params.get('page'), 1),
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
    sort: params.get('sort') || DEFAULT_SORT_FIELD,
    ascending: params.get('order') === 'asc',
    filters,
  };
}

/** Writes only what differs from the defaults, so a fresh list has a clean URL. */
export function serializeListQuery(query: ListQuery): string {
  const params = new URLSearchParams();
  if (query.page !== 1) params.set('page', String(query.page));
  if (query.size !== DEFAULT_PAGE_SIZE) params.set('size', String(query.size));
  if (query.sort !== DEFAULT_SORT_FIELD || query.ascending) {
    params.set('sort', query.sort);
    params.set('order', query.ascending ? 'asc' : 'desc');
  }
  for (const [name, value] of Object.entries(query.filters)) if (value) params.set(name, value);
  return params.toString();
}

/** A header click: same column flips the direction, a new column starts ascending; back to page 1, size 10. */
export function withSort(query: ListQuery, field: string): ListQuery {
  const ascending = query.sort === field ? !query.ascending : true;
  return { ...query, sort: field, ascending, page: 1, size: DEFAULT_PAGE_SIZE };
}

export function withPage(query: ListQuery, page: number): ListQuery {
  return { ...query, page };
}

export function withPageSize(query: ListQuery, size: number): ListQuery {
  return { ...query, size, page: 1 };
}

export function withFilters(query: ListQuery, filters: Record<string, string>): ListQuery {
  const kept = Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== ''));
  return { ...query, filters: kept, page: 1 };
}

export function hasActiveFilters(query: ListQuery): boolean {
  return Object.values(query.filters).some((value) => value !== '');
}

/** The filters under their API parameter names (e.g. firstName → FirstName), as the filter and export calls take them. */
export function toFilterQuery(query: ListQuery, filterParams: Record<string, string> = {}): Query {
  return Object.fromEntries(Object.entries(query.filters).map(([name, value]) => [filterParams[name] ?? name, value]));
}

/** The paging query every list endpoint takes, plus the filters. */
export function toApiQuery(query: ListQuery, filterParams: Record<string, string> = {}): Query {
  return {
    Skip: (query.page - 1) * query.size,
    Take: query.size,
    SortField: query.sort,
    OrderBy: query.ascending,
    ...toFilterQuery(query, filterParams),
  };
}

/** Pagination shows above 10 rows, and whenever the chosen page size hides rows. */
export function needsPagination(totalCount: number, size: number): boolean {
  return totalCount > DEFAULT_PAGE_SIZE || totalCount > size;
}
