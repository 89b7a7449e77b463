import { describe, expect, it } from 'vitest';
import {
  defaultListQuery,
  needsPagination,
  parseListQuery,
  serializeListQuery,
  toApiQuery,
  withFilters,
  withPage,
  withPageSize,
  withSort,
  type ListQuery,
} from './listQuery';

describe('list query', () => {
  it('defaults to page 1, size 10, id descending (OrderBy=false)', () => {
    expect(parseListQuery('', [])).toEqual(defaultListQuery());
    expect(toApiQuery(defaultListQuery())).toEqual({ Skip: 0, Take: 10, SortField: 'id', OrderBy: false });
  });

  it('a header click sorts ascending, a second click descending, and both go back to page 1 with size 10', () => {
    const deep: ListQuery = { ...defaultListQuery(), page: 4, size: 25 };
    const first = withSort(deep, 'email');
    expect(first).toMatchObject({ sort: 'email', ascending: true, page: 1, size: 10 });
    const second = withSort({ ...first, page: 3, size: 5 }, 'email');
    expect(second).toMatchObject({ sort: 'email', ascending: false, page: 1, size: 10 });
    expect(withSort(second, 'firstName')).toMatchObject({ sort: 'firstName', ascending: true });
  });

  it('a page-size change returns to page 1; a filter change too', () => {
    const at3 = withPage(defaultListQuery(), 3);
    expect(withPageSize(at3, 25)).toMatchObject({ page: 1, size: 25 });
    expect(withFilters(at3, { firstName: 'ada', email: '' })).toMatchObject({ page: 1, filters: { firstName: 'ada' } });
  });

  it('turns page and filters into Skip/Take and the API filter names', () => {
    const query: ListQuery = { page: 3, size: 25, sort: 'lastName', ascending: true, filters: { firstName: 'ada', roleId: '2' } };
    expect(toApiQuery(query, { firstName: 'FirstName', roleId: 'RoleId' })).toEqual({
      Skip: 50,
      Take: 25,
      SortField: 'lastName',
      OrderBy: true,
      FirstName: 'ada',
      RoleId: '2',
    });
  });

  it('round-trips through the URL, writing only what differs from the defaults', () => {
    const query: ListQuery = { page: 2, size: 25, sort: 'email', ascending: false, filters: { lastName: 'Love lace', roleId: '0' } };
    const search = serializeListQuery(query);
    expect(search).toBe('page=2&size=25&sort=email&order=desc&lastName=Love+lace&roleId=0');
    expect(parseListQuery(search, ['lastName', 'roleId'])).toEqual(query);
    expect(serializeListQuery(defaultListQuery())).toBe('');
  });

  it('ignores unknown filters and invalid numbers in the URL', () => {
    expect(parseListQuery('page=-2&size=7&evil=1&firstName=x', ['firstName'])).toEqual({
      ...defaultListQuery(),
      filters: { firstName: 'x' },
    });
  });

  it('shows pagination only above 10 rows (or when the chosen size hides rows)', () => {
    expect(needsPagination(10, 10)).toBe(false);
    expect(needsPagination(11, 10)).toBe(true);
    expect(needsPagination(0, 10)).toBe(false);
    expect(needsPagination(8, 5)).toBe(true);
    expect(needsPagination(5, 5)).toBe(false);
  });
});
