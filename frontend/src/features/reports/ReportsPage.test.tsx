import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { chartConfig, stateColors } from '../../components/Chart';
import { toasts } from '../../components/Toast';
import { Role } from '../../lib/roles';
import { admin, captureDownloads, json, mockApi, queryOf, signedIn, type Handler } from '../../testing/api';
import { chartIn, drawnCharts, drawnIn, shown } from '../../testing/charts';
import { renderAt } from '../../testing/render';
import ReportsPage from './ReportsPage';
import { statesChart, type ReportName, type ReportPage } from './reportsData';

vi.mock('chart.js', async (importOriginal) => (await import('../../testing/charts')).chartJsMock(importOriginal));

const names = (kind: string, count: number): ReportName[] =>
  Array.from({ length: count }, (_, index) => ({ id: count - index, name: `${kind} ${count - index}`, state: index % 5 === 0 ? 'deleted' : index % 3 === 0 ? 'deactive' : 'active' }));

/** A server holding `rows` of one kind with these counts: pages by Skip/Take, searches by Name. */
const report =
  (rows: ReportName[], counts: Omit<ReportPage, 'data' | 'totalCount'>): Handler =>
  ({ url }) => {
    const search = (url.searchParams.get('Name') ?? '').toLowerCase();
    const matching = rows.filter((row) => row.name.toLowerCase().includes(search));
    const skip = Number(url.searchParams.get('Skip') ?? 0);
    const take = Number(url.searchParams.get('Take') ?? 1000);
    return json({ data: matching.slice(skip, skip + take), totalCount: matching.length, ...counts });
  };

const xlsx = (fileName: string) => () =>
  new Response(new Uint8Array([0x50, 0x4b, 3, 4]), {
    headers: { 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'Content-Disposition': `attachment; filename="${fileName}"` },
  });

function setup(overrides: Record<string, Handler> = {}, roleId: number = Role.Admin) {
  signedIn({}, { ...admin, roleId });
  const api = mockApi({
    'GET /api/report/asset': report(names('Asset', 12), { activeCount: 7, deactiveCount: 3, deletedCount: 2, allCount: 12 }),
    'GET /api/report/partner': report(names('Partner', 4), { activeCount: 2, deactiveCount: 1, deletedCount: 1, allCount: 4 }),
    'GET /api/report/campaign': report(names('Campaign', 3), { activeCount: 3, deactiveCount: 0, deletedCount: 0, allCount: 3 }),
    'GET /api/report/employee': report(names('Employee', 30), { activeCount: 20, deactiveCount: 6, deletedCount: 4, allCount: 30 }),
    'GET /api/report/export/counts': xlsx('Reports-count.xlsx'),
    'GET /api/report/export': xlsx('Reports-name.xlsx'),
    ...overrides,
  });
  renderAt('/reports', <ReportsPage />);
  return { api, user: userEvent.setup() };
}

const panel = () => screen.getByRole('tabpanel');
const card = (title: string) => within(panel()).getByRole('heading', { name: title, level: 2 }).closest('section') as HTMLElement;
const nameCells = () => within(card(`${currentKind()} names`)).getAllByRole('row').slice(1).map((row) => row.textContent);
const currentKind = () => screen.getByRole('tab', { selected: true }).textContent as string;

beforeEach(() => {
  drawnCharts.length = 0;
});

describe('report data → pie', () => {
  it('maps the counts to a pie of active, deactive and deleted in the state colours', () => {
    const data = statesChart({ activeCount: 7, deactiveCount: 3, deletedCount: 2 }, { active: 'Active', deactive: 'Deactive', deleted: 'Deleted' }, 'Asset names');
    expect(data).toEqual({ kind: 'pie', labels: ['Active', 'Deactive', 'Deleted'], values: [7, 3, 2], seriesLabel: 'Asset names', colors: stateColors });
    const config = chartConfig(data);
    expect(config.type).toBe('pie');
    expect(config.data.datasets[0]).toMatchObject({ data: [7, 3, 2], backgroundColor: [...stateColors] });
  });
});

describe('Reports screen', () => {
  it('has the four tabs; Asset shows its names, its pie with the numbers and the total badge', async () => {
    const { api } = setup();
    expect(screen.getByRole('heading', { name: 'Reports', level: 1 })).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Asset', 'Partner', 'Campaign', 'Employee']);
    expect(screen.getByRole('tab', { name: 'Asset' })).toHaveAttribute('aria-selected', 'true');
    expect(await within(panel()).findByText('Total: 12')).toBeInTheDocument();
    const pie = within(panel()).getByRole('figure', { name: 'Asset by state' });
    expect(shown(await drawnIn(pie))).toEqual({ labels: ['Active', 'Deactive', 'Deleted'], values: [7, 3, 2] });
    expect(within(pie).getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual(['Active7', 'Deactive3', 'Deleted2']);
    // Ten names a page, newest first as the server sends them, each with its state.
    expect(nameCells()).toHaveLength(10);
    expect(nameCells()[0]).toBe('Asset 12Deleted');
    expect(nameCells()[1]).toBe('Asset 11Active');
    expect(nameCells()[3]).toBe('Asset 9Deactive');
    expect(queryOf(api.callsTo('GET /api/report/asset')[0])).toEqual({ Skip: '0', Take: '10', SortField: 'id', OrderBy: 'false' });
    expect(api.callsTo('GET /api/report/partner')).toHaveLength(0);
  });

  it('switches tabs by click and by arrow key, each loading its own report', async () => {
    const { api, user } = setup();
    await within(panel()).findByText('Total: 12');
    await user.click(screen.getByRole('tab', { name: 'Partner' }));
    expect(await within(panel()).findByText('Total: 4')).toBeInTheDocument();
    expect(shown(await drawnIn(within(panel()).getByRole('figure', { name: 'Partner by state' }))).values).toEqual([2, 1, 1]);
    expect(nameCells()).toEqual(['Partner 4Deleted', 'Partner 3Active', 'Partner 2Active', 'Partner 1Deactive']);
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Campaign' })).toHaveAttribute('aria-selected', 'true');
    expect(await within(panel()).findByText('Total: 3')).toBeInTheDocument();
    await user.keyboard('{ArrowRight}');
    expect(await within(panel()).findByText('Total: 30')).toBeInTheDocument();
    expect(api.callsTo('GET /api/report/employee')).toHaveLength(1);
    // Pages of names: the pager shows with more than ten.
    await user.click(within(panel()).getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(queryOf(api.callsTo('GET /api/report/employee')[1])).toEqual({ Skip: '10', Take: '10', SortField: 'id', OrderBy: 'false' }));
    await waitFor(() => expect(nameCells()[0]).toBe('Employee 20Deleted'));
  });

  it('searches the names 500 ms after typing, from the first page; the pie and badge keep the whole kind', async () => {
    const { api, user } = setup();
    await within(panel()).findByText('Total: 12');
    await user.click(within(panel()).getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(api.callsTo('GET /api/report/asset')).toHaveLength(2));
    await user.type(within(panel()).getByRole('searchbox', { name: 'Search' }), 'set 1');
    expect(api.callsTo('GET /api/report/asset')).toHaveLength(2);
    await waitFor(() => expect(api.callsTo('GET /api/report/asset')).toHaveLength(3));
    expect(queryOf(api.callsTo('GET /api/report/asset')[2])).toEqual({ Skip: '0', Take: '10', SortField: 'id', OrderBy: 'false', Name: 'set 1' });
    await waitFor(() => expect(nameCells()).toEqual(['Asset 12Deleted', 'Asset 11Active', 'Asset 10Active', 'Asset 1Active']));
    expect(within(panel()).getByText('Total: 12')).toBeInTheDocument();
    await user.click(within(within(panel()).getByRole('columnheader', { name: 'Name' })).getByRole('button'));
    await waitFor(() => expect(queryOf(api.callsTo('GET /api/report/asset')[3])).toMatchObject({ SortField: 'name', OrderBy: 'true', Skip: '0' }));
  });

  it('shows "Error: " in the pie and the lost connection in the list when a report fails', async () => {
    const { user } = setup({ 'GET /api/report/partner': () => json({ message: 'The report is not available.' }, 500) });
    await within(panel()).findByText('Total: 12');
    await user.click(screen.getByRole('tab', { name: 'Partner' }));
    expect(await within(card('Partner by state')).findByRole('alert')).toHaveTextContent('Error: The report is not available.');
    expect(within(card('Partner names')).getByText("We've lost the connection")).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Asset' }));
    expect(await within(panel()).findByText('Total: 12')).toBeInTheDocument();
  });

  it('downloads Reports-count.xlsx and Reports-name.xlsx from the one Export button', async () => {
    const saved = captureDownloads();
    const { api, user } = setup();
    await within(panel()).findByText('Total: 12');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(saved).toEqual(['Reports-count.xlsx', 'Reports-name.xlsx']));
    expect(api.callsTo('GET /api/report/export/counts')).toHaveLength(1);
    expect(api.callsTo('GET /api/report/export')).toHaveLength(1);
    // The toast (its region lives in the signed-in layout).
    await waitFor(() => expect(toasts.value.map((toast) => toast.text)).toContain('Reports-count.xlsx and Reports-name.xlsx downloaded'));
  });

  it('says why the export failed beside the button', async () => {
    const saved = captureDownloads();
    const { user } = setup({ 'GET /api/report/export': () => json({ message: 'Disk full.' }, 500) });
    await within(panel()).findByText('Total: 12');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Disk full.');
    expect(saved).toEqual(['Reports-count.xlsx']);
  });

  it('offers no export to Call Center, who still reads every tab', async () => {
    const { user } = setup({}, Role.CallCenter);
    await within(panel()).findByText('Total: 12');
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
    await user.click(screen.getByRole('tab', { name: 'Employee' }));
    expect(await within(panel()).findByText('Total: 30')).toBeInTheDocument();
    await act(async () => undefined);
    expect(chartIn(within(panel()).getByRole('figure', { name: 'Employee by state' }))).toBeTruthy();
  });
});
