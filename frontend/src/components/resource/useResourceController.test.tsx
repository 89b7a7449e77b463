import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockApi, pageOf, queryOf, signedIn } from '../../testing/api';
import { renderAt } from '../../testing/render';
import { ToastRegion } from '../Toast';
import type { ResourceFilter } from './types';
import { useResourceController, type ResourceController } from './useResourceController';

interface Row {
  id: number;
  name: string;
}

const rows = (count: number): Row[] => Array.from({ length: count }, (_, index) => ({ id: index + 1, name: `Row ${index + 1}` }));

const filters: ResourceFilter[] = [{ name: 'name', param: 'Name', label: 'field.name', kind: 'text' } as ResourceFilter];

/** Renders the controller alone, with no view, and hands it out after each render. */
function controlled(path: string) {
  const seen: { current: ResourceController<Row> | null } = { current: null };
  function Probe() {
    seen.current = useResourceController<Row>({ basePath: 'thing', filters });
    return <ToastRegion />;
  }
  const rendered = renderAt(path, <Probe />);
  const control = () => {
    if (!seen.current) throw new Error('the controller has not rendered');
    return seen.current;
  };
  return { ...rendered, control };
}

describe('useResourceController', () => {
  it('reads page, size, sort and filters from the URL, asks the list or the filter call, and writes moves back to the URL', async () => {
    signedIn();
    const api = mockApi({ 'GET /api/thing': pageOf(rows(30)), 'GET /api/thing/filter': pageOf(rows(3)) });
    const { control, currentPath } = controlled('/things?page=2&size=5&sort=name&order=asc');
    await waitFor(() => expect(control().list.status).toBe('ready'));
    expect(queryOf(api.callsTo('GET /api/thing')[0])).toEqual({ Skip: '5', Take: '5', SortField: 'name', OrderBy: 'true' });
    expect(control().list.rows.map((row) => row.id)).toEqual([6, 7, 8, 9, 10]);

    act(() => control().sortBy('name'));
    expect(currentPath()).toBe('/things?sort=name&order=desc');
    act(() => control().applyFilters({ name: 'Row 1' }));
    await waitFor(() => expect(api.callsTo('GET /api/thing/filter')).toHaveLength(1));
    expect(queryOf(api.callsTo('GET /api/thing/filter')[0])).toMatchObject({ Name: 'Row 1', Skip: '0' });
    expect(control().filtered).toBe(true);
    expect(control().filterQuery).toEqual({ Name: 'Row 1' });
    act(() => control().clearFilters());
    expect(control().filtered).toBe(false);
  });

  it('keeps the selection across pages but clears it, saying so, when a filter changes', async () => {
    signedIn();
    mockApi({ 'GET /api/thing': pageOf(rows(30)), 'GET /api/thing/filter': pageOf(rows(2)) });
    const { control } = controlled('/things');
    await waitFor(() => expect(control().list.status).toBe('ready'));
    act(() => control().setSelected(new Set([1, 2])));
    act(() => control().goToPage(2));
    await waitFor(() => expect(control().query.page).toBe(2));
    expect([...control().selected]).toEqual([1, 2]);
    act(() => control().applyFilters({ name: 'Row' }));
    await waitFor(() => expect(control().selected.size).toBe(0));
    expect(await screen.findByText('Selection cleared: the filter changed')).toBeInTheDocument();
  });

  it('reads the list again on a change and steps back from a page a delete emptied', async () => {
    signedIn();
    let stored = rows(11);
    const api = mockApi({ 'GET /api/thing': (call) => pageOf(stored)(call) });
    const { control, currentPath } = controlled('/things?page=2');
    await waitFor(() => expect(control().list.rows.map((row) => row.id)).toEqual([11]));
    stored = rows(10);
    act(() => control().mutated());
    await waitFor(() => expect(currentPath()).toBe('/things'));
    await waitFor(() => expect(control().list.rows).toHaveLength(10));
    expect(api.callsTo('GET /api/thing').length).toBeGreaterThanOrEqual(3);
  });

  it('shows a failed list as an error with no rows and no count', async () => {
    signedIn();
    mockApi({ 'GET /api/thing': () => json({ message: 'Down.' }, 500) });
    const { control } = controlled('/things');
    await waitFor(() => expect(control().list.status).toBe('error'));
    expect(control().list).toMatchObject({ rows: [], totalCount: 0, counted: false });
  });
});
