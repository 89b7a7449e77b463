import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { chartConfig, chartPalette } from '../../components/Chart';
import { monthNames, setUiLanguage } from '../../lib/i18n';
import { Role } from '../../lib/roles';
import { admin, json, mockApi, queryOf, signedIn, type Handler } from '../../testing/api';
import { chartIn, drawnCharts, drawnIn, shown } from '../../testing/charts';
import { browserWithoutLocaleData } from '../../testing/intl';
import { renderAt } from '../../testing/render';
import DashboardPage from './DashboardPage';
import { employeesChart, formatRating, monthLabel, monthsSoFar, usageChart, yearOptions, type DashboardSummary } from './dashboardData';

vi.mock('chart.js', async (importOriginal) => (await import('../../testing/charts')).chartJsMock(importOriginal));

const summary: DashboardSummary = {
  activeEmployeeCount: 1180,
  deactiveEmployeeCount: 45,
  totalEmployeeCount: 1225,
  lastMonthUsageCount: 312,
  totalUsageCount: 9876,
  lastMonth: '2026-10',
  partners: [
    { id: 4, name: 'Bravo Market', campaignsCount: 12, rating: 4.25 },
    { id: 9, name: 'Şirin Çay Evi', campaignsCount: 7, rating: null },
  ],
};
const categories = [
  { id: 1, categoryName: 'Yemək', usageCount: 540 },
  { id: 2, categoryName: 'Geyim', usageCount: 210 },
];
const assetRow = (assetId: number, assetName: string, employeeCount: number, usageHistoryCount: number) => ({
  assetId,
  assetName,
  employeeCount,
  activeEmployeeCount: employeeCount,
  deactiveEmployeeCount: 0,
  usageHistoryCount,
});
const byUsage = [assetRow(1, 'Azersun Holding', 300, 4100), assetRow(2, 'Bakcell', 820, 2000)];
const byEmployees = [assetRow(2, 'Bakcell', 820, 2000), assetRow(1, 'Azersun Holding', 300, 4100)];
const verification = {
  month: '2026-11',
  usageCount: 8,
  verifiedCount: 3,
  verifiedPercent: 37.5,
  campaignsAtLimit: [{ id: 7, name: 'Payız endirimi', partnerName: 'Araz Market', usesCount: 500, usageLimitTotal: 500 }],
  campaignsAtLimitCount: 3,
};
const months = (year: number) => Array.from({ length: 12 }, (_, index) => ({ month: index + 1, usageCount: year === 2026 ? (index + 1) * 10 : index }));

function setup(overrides: Record<string, Handler> = {}, roleId: number = Role.Admin) {
  signedIn({}, { ...admin, roleId });
  const api = mockApi({
    'GET /api/dashboard': () => json(summary),
    'GET /api/dashboard/usageCategories': () => json(categories),
    'GET /api/dashboard/usageEmployees': () => json(byUsage),
    'GET /api/dashboard/assetEmployees': () => json(byEmployees),
    'GET /api/dashboard/usageHistory': ({ url }) => json(months(Number(url.searchParams.get('year')))),
    'GET /api/dashboard/verification': () => json(verification),
    ...overrides,
  });
  renderAt('/dashboard', <DashboardPage />);
  return { api, user: userEvent.setup() };
}

const card = (title: string) => screen.getByRole('heading', { name: title, level: 2 }).closest('section') as HTMLElement;
const figure = (name: string) => screen.getByRole('figure', { name });
/** A chart's fallback table as [label, number] rows. */
const tableRows = (scope: HTMLElement) =>
  within(scope)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

beforeEach(() => {
  drawnCharts.length = 0;
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-23T10:00:00Z') });
});

describe('dashboard data → charts', () => {
  it('maps the employee counts to a doughnut of active and deactive in the panel palette', () => {
    const data = employeesChart(summary, { active: 'Active', deactive: 'Deactive', series: 'Employees' });
    expect(data).toEqual({ kind: 'doughnut', labels: ['Active', 'Deactive'], values: [1180, 45], seriesLabel: 'Employees', colors: [chartPalette.emerald, chartPalette.amber] });
    const config = chartConfig(data);
    expect(config.type).toBe('doughnut');
    expect(config.data.datasets[0]).toMatchObject({ data: [1180, 45], backgroundColor: [chartPalette.emerald, chartPalette.amber] });
    expect(config.options).toMatchObject({ responsive: true, maintainAspectRatio: false, animation: false });
    // In the dark scheme the slices take the lighter shades and are parted by the dark card's colour.
    expect(chartConfig(data, 'dark').data.datasets[0]).toMatchObject({ backgroundColor: ['#34d399', '#fbbf24'], borderColor: '#141c2b' });
  });

  it('puts each month on its own point Jan to Dec; missing or impossible months count as none', () => {
    const data = usageChart([{ month: 3, usageCount: 7 }, { month: 12, usageCount: 40 }, { month: 13, usageCount: 99 }, { month: 0, usageCount: 5 }], monthNames('short'), 'Usage count');
    expect(data.labels).toEqual(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']);
    expect(data.values).toEqual([0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 40]);
    const config = chartConfig(data);
    expect(config.type).toBe('line');
    expect(config.data.datasets[0]).toMatchObject({ label: 'Usage count', borderColor: chartPalette.indigo, data: data.values });
    expect(config.options?.scales?.y).toMatchObject({ beginAtZero: true, ticks: { precision: 0 } });
    expect(chartConfig(data, 'dark').options?.scales?.y).toMatchObject({ grid: { color: '#2b3649' }, ticks: { color: '#a9b3c4' } });
    // The y axis and the tooltip write numbers as the panel does, not as chart.js's Intl would.
    const y = config.options?.scales?.y as { ticks: { callback: (value: number) => string } };
    expect(y.ticks.callback(12000)).toBe('12,000');
  });

  it('ends the line of this year at the current month: months still to come have no point, not a zero', () => {
    const now = new Date(Date.UTC(2026, 10, 25));
    expect([monthsSoFar(2025, now), monthsSoFar(2026, now), monthsSoFar(2027, now)]).toEqual([12, 11, 0]);
    // The months are UTC ones, as the server's: 21:00 UTC on 30 November is 1 December in Baku, still November here,
    // and 31 December 21:00 UTC is still the old year.
    expect(monthsSoFar(2026, new Date(Date.UTC(2026, 10, 30, 21)))).toBe(11);
    expect([monthsSoFar(2026, new Date(Date.UTC(2026, 11, 31, 21))), monthsSoFar(2027, new Date(Date.UTC(2026, 11, 31, 21)))]).toEqual([12, 0]);
    const data = usageChart([{ month: 3, usageCount: 7 }, { month: 12, usageCount: 40 }], monthNames('short'), 'Usage count', monthsSoFar(2026, now));
    expect(data.values).toEqual([0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, null]);
  });

  it('offers this year first and the nine before it; names last month and formats ratings', () => {
    expect(yearOptions(2026)).toEqual([2026, 2025, 2024, 2023, 2022, 2021, 2020, 2019, 2018, 2017]);
    expect(monthLabel('2026-10')).toBe('October 2026');
    expect(monthLabel('2025-12')).toBe('December 2025');
    expect(monthLabel('bogus')).toBeNull();
    expect(formatRating(4.25)).toBe('4.25');
    expect(formatRating(4)).toBe('4.00');
    expect(formatRating(null)).toBeNull();
  });
});

describe('Dashboard screen', () => {
  it('shows the headline figures, both charts with their numbers in tables, and each table once', async () => {
    setup();
    const figures = await screen.findByText('Total employees');
    const list = figures.closest('dl') as HTMLElement;
    expect(within(list).getAllByRole('definition').map((dd) => dd.textContent)).toEqual(['1,225', '312', '9,876']);
    expect(within(list).getByText('Usage last month (October 2026)')).toBeInTheDocument();

    const doughnut = figure('Active and deactive employees');
    expect(shown(await drawnIn(doughnut))).toEqual({ labels: ['Active', 'Deactive'], values: [1180, 45] });
    expect(chartIn(doughnut).config.type).toBe('doughnut');
    expect(tableRows(doughnut)).toEqual([
      ['Active', '1,180'],
      ['Deactive', '45'],
    ]);

    const line = await screen.findByRole('figure', { name: 'Usage history by month in 2026' });
    expect((await drawnIn(line)).config.type).toBe('line');
    // This year's line ends at the current month: later months have no point and an empty cell.
    const begun = new Date().getMonth() + 1;
    const monthly = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120].map((value, index) => (index < begun ? value : null));
    expect(shown(chartIn(line)).values).toEqual(monthly);
    expect(tableRows(line)[0]).toEqual(['Jan', '10']);
    expect(tableRows(line)[11]).toEqual(['Dec', begun === 12 ? '120' : '']);

    // Each table of the spec once (docs/decisions.md), with its columns and rows.
    const titles = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(titles).toEqual([
      'Active and deactive employees',
      'Usage history by month',
      'Top 10 Merchant',
      'Top 10 Category',
      'Employees included per asset',
      'Count of employees on assets',
      'Uses confirmed at the till',
    ]);
    const merchants = within(card('Top 10 Merchant'));
    expect(merchants.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Name', 'Campaigns count', 'Rating']);
    expect(within(merchants.getByRole('row', { name: /Bravo Market/ })).getAllByRole('cell').map((td) => td.textContent)).toEqual(['Bravo Market', '12', '4.25']);
    expect(within(merchants.getByRole('row', { name: /Şirin/ })).getAllByRole('cell').map((td) => td.textContent)).toEqual(['Şirin Çay Evi', '7', 'No ratings']);
    const top = within(card('Top 10 Category'));
    expect(top.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Category name', 'Usage count']);
    expect(top.getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual(['Yemək540', 'Geyim210']);
    const perAsset = within(card('Employees included per asset'));
    expect(perAsset.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Asset name', 'Employee count', 'Usage history count']);
    expect(perAsset.getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual(['Azersun Holding3004,100', 'Bakcell8202,000']);
    const onAssets = within(card('Count of employees on assets'));
    expect(onAssets.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Asset name', 'Employee count']);
    expect(onAssets.getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual(['Bakcell820', 'Azersun Holding300']);
    // Issue 41: the share confirmed at the till this month, and the campaigns at their limit.
    const verified = within(card('Uses confirmed at the till'));
    expect(verified.getByText('Confirmed with a redemption code in November 2026')).toBeTruthy();
    expect(verified.getByText('37.5%')).toBeTruthy();
    expect(verified.getByText('3 of 8 uses')).toBeTruthy();
    expect(verified.getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual(['Payız endirimiAraz Market500 of 500']);
    expect(verified.getByText('And 2 more.')).toBeTruthy();
  });

  it('says when no use was made this month and no campaign is at its limit', async () => {
    setup({
      'GET /api/dashboard/verification': () =>
        json({ ...verification, usageCount: 0, verifiedCount: 0, verifiedPercent: null, campaignsAtLimit: [], campaignsAtLimitCount: 0 }),
    });
    const verified = within(await screen.findByRole('heading', { name: 'Uses confirmed at the till', level: 2 }).then((h) => h.closest('section') as HTMLElement));
    expect(await verified.findByText('No uses this month yet.')).toBeTruthy();
    expect(verified.getByText('No campaign has reached its limit.')).toBeTruthy();
  });

  it('in Azerbaijani on a browser without Azerbaijani data, takes month names and numbers from the panel', async () => {
    await act(() => setUiLanguage('az'));
    browserWithoutLocaleData('az');
    try {
      setup();
      const list = (await screen.findAllByRole('definition'))[0].closest('dl') as HTMLElement;
      expect(within(list).getAllByRole('definition').map((dd) => dd.textContent)).toEqual(['1.225', '312', '9.876']);
      expect(list.textContent).toContain('(Oktyabr 2026)');
      const line = (await screen.findAllByRole('figure'))[1];
      await drawnIn(line);
      expect(tableRows(line).map(([month]) => month)).toEqual(['Yan', 'Fev', 'Mar', 'Apr', 'May', 'İyn', 'İyl', 'Avq', 'Sen', 'Okt', 'Noy', 'Dek']);
      expect(tableRows(figure(screen.getAllByRole('figure')[0].getAttribute('aria-label') ?? ''))).toEqual([
        ['Aktiv', '1.180'],
        ['Deaktiv', '45'],
      ]);
      expect(within(screen.getByRole('row', { name: /Bravo Market/ })).getAllByRole('cell').map((td) => td.textContent)).toEqual(['Bravo Market', '12', '4,25']);
      expect(screen.getAllByRole('row', { name: /Azersun/ })[0].textContent).toContain('4.100');
      expect(document.body.textContent).not.toMatch(/M\d\d|1,225|4\.25/);
    } finally {
      await act(() => setUiLanguage('en'));
    }
  });

  it('says "Error: " and the message in the card whose call failed; the rest still works', async () => {
    const { user } = setup({
      'GET /api/dashboard/usageCategories': () => json({ message: 'The database is busy.' }, 503),
      'GET /api/dashboard': () => json({ message: 'Forbidden by a test.' }, 500),
    });
    expect(await within(card('Top 10 Category')).findByRole('alert')).toHaveTextContent('Error: The database is busy.');
    // The summary feeds the figures, the doughnut and the merchants: each says so where it stands.
    expect(within(card('Active and deactive employees')).getByRole('alert')).toHaveTextContent('Error: Forbidden by a test.');
    expect(within(card('Top 10 Merchant')).getByRole('alert')).toHaveTextContent('Error: Forbidden by a test.');
    expect(screen.queryByText('Total employees')).toBeNull();
    // The others are drawn and still answer.
    expect(await within(card('Count of employees on assets')).findByText('Bakcell')).toBeInTheDocument();
    const line = await screen.findByRole('figure', { name: 'Usage history by month in 2026' });
    await drawnIn(line);
    await user.selectOptions(screen.getByLabelText('Year'), '2025');
    await waitFor(() => expect(shown(chartIn(line)).values).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]));
  });

  it('a failed connection reads "Error: We\'ve lost the connection"', async () => {
    setup({ 'GET /api/dashboard/usageHistory': () => Promise.reject(new TypeError('Failed to fetch')) });
    expect(await within(card('Usage history by month')).findByRole('alert')).toHaveTextContent("Error: We've lost the connection");
  });

  it('draws this year by default and the chosen year from the picker, in the same chart', async () => {
    const { api, user } = setup();
    const picker = screen.getByLabelText('Year');
    expect(picker).toHaveValue('2026');
    expect(within(picker).getAllByRole('option').map((option) => option.textContent).slice(0, 3)).toEqual(['2026', '2025', '2024']);
    const line = await screen.findByRole('figure', { name: 'Usage history by month in 2026' });
    expect(queryOf(api.callsTo('GET /api/dashboard/usageHistory')[0])).toEqual({ year: '2026' });
    const drawn = await drawnIn(line);

    await user.selectOptions(picker, '2024');
    await waitFor(() => expect(queryOf(api.callsTo('GET /api/dashboard/usageHistory')[1])).toEqual({ year: '2024' }));
    const again = await screen.findByRole('figure', { name: 'Usage history by month in 2024' });
    await waitFor(() => expect(shown(chartIn(again)).values).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]));
    // The chart is updated in place, not drawn anew.
    expect(chartIn(again)).toBe(drawn);
    expect(drawn.updates).toBeGreaterThan(0);
    expect(tableRows(again)[11]).toEqual(['Dec', '11']);
  });

  it('keeps each chart\'s table for screen readers and shows it to everyone on request', async () => {
    const { user } = setup();
    const doughnut = await screen.findByRole('figure', { name: 'Active and deactive employees' });
    const table = within(doughnut).getByRole('table', { name: 'Active and deactive employees' });
    expect(table.parentElement).toHaveClass('sr-only');
    expect(doughnut.querySelector('canvas')).toHaveAttribute('aria-hidden', 'true');
    const toggle = within(doughnut).getByRole('button', { name: 'Show the numbers as a table' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(table.parentElement).not.toHaveClass('sr-only');
    expect(within(doughnut).getByRole('button', { name: 'Hide the table' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('is the same for Call Center, who reads it all', async () => {
    setup({}, Role.CallCenter);
    expect(await within(card('Top 10 Merchant')).findByText('Bravo Market')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Export/ })).toBeNull();
  });
});
