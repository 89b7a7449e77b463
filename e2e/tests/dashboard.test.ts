import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../support/api';
import { expectAccessible } from '../support/axe';
import { DESKTOP, PHONE, shot, TABLET } from '../support/browser';
import { canvasState, chartFigure, consoleErrors, drawn, fallbackTable, tableRows, timeDashboardFromMenu } from '../support/charts';
import { seedReporting, type ReportingSeed } from '../support/reportingSeed';
import { useSuite } from '../support/suite';
import { overflowsHorizontally, until, waitForPath } from '../support/ui';

const suite = useSuite({ operator: { email: 'kamran.callcenter@perkdesk.test', firstName: 'Kamran', lastName: 'Rzayev', password: 'Operator-pass-2026' } });

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const count = (n: number) => n.toLocaleString('en-US');

/** A card of the dashboard by its title. */
const card = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
/** A card's data table (the one DataTable inside it) as rows of cell texts. */
const cardRows = (page: Page, title: string) => tableRows(card(page, title).getByRole('table', { name: title, exact: true }));
/** The table under the line, as drawn for `year`: a month that has not begun (in UTC, as the server's months) has no figure. */
const monthRows = (values: number[], year: number) => {
  const now = new Date();
  const begun = year < now.getUTCFullYear() ? 12 : year === now.getUTCFullYear() ? now.getUTCMonth() + 1 : 0;
  return MONTHS.map((month, index) => [month, index < begun ? count(values[index]) : '']);
};

/** Everything the dashboard draws from the seed, checked on the page as it is. */
async function expectSeededDashboard(page: Page, seed: ReportingSeed, year = seed.thisYear) {
  const doughnut = chartFigure(page, 'Active and deactive employees');
  await until(() => drawn(doughnut)).toBe(true);
  expect(await tableRows(fallbackTable(doughnut))).toEqual([
    ['Active', count(seed.employees.active)],
    ['Deactive', count(seed.employees.deactive)],
  ]);
  const line = chartFigure(page, `Usage history by month in ${year}`);
  await until(() => drawn(line)).toBe(true);
  expect(await tableRows(fallbackTable(line))).toEqual(monthRows(seed.usageIn(year), year));
  await until(() => cardRows(page, 'Top 10 Merchant')).toEqual(seed.merchants);
  await until(() => cardRows(page, 'Top 10 Category')).toEqual(seed.categories);
  await until(() => cardRows(page, 'Employees included per asset')).toEqual(seed.assetUsage);
  await until(() => cardRows(page, 'Count of employees on assets')).toEqual(seed.assetEmployees);
}

/** The headline figures as label → number. */
async function figures(page: Page): Promise<Record<string, string>> {
  const list = page.getByRole('main').locator('dl').first();
  const labels = await list.locator('dt').allInnerTexts();
  const values = await list.locator('dd').allInnerTexts();
  return Object.fromEntries(labels.map((label, index) => [label, values[index]]));
}

/** Does every element matched stay inside its card (no drawing or table sticking out)? */
async function insideCards(page: Page): Promise<boolean> {
  return page.getByRole('main').evaluate((main) =>
    [...main.querySelectorAll('section')].every((section) => {
      const box = section.getBoundingClientRect();
      return [...section.querySelectorAll('canvas, [class*="overflow-x-auto"]')].every((inner) => {
        const own = inner.getBoundingClientRect();
        return own.left >= box.left - 1 && own.right <= box.right + 1;
      });
    }),
  );
}

describe('Dashboard: charts, headline figures, tables, year picker, failures, sizes', () => {
  let seed: ReportingSeed;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    const api = await suite.api();
    await api.setRole(suite.accounts.operator.email, Role.CallCenter);
    seed = await seedReporting(api, suite.server.dbPath);
    page = await suite.signedIn(suite.admin, '/users');
    errors = consoleErrors(page);
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
  });

  it('is drawn within a second of choosing it in the menu, with every number of the seed', async () => {
    // The first visit fetches the screen's code; later ones find it loaded. The best of four visits
    // must be under a second, so one load spike on the shared machine does not decide it.
    const visits: number[] = [];
    for (let visit = 0; visit < 4; visit += 1) {
      if (visit > 0) {
        await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Users', exact: true }).click();
        await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      }
      visits.push(await timeDashboardFromMenu(page));
      await waitForPath(page, '/dashboard');
    }
    console.info(`dashboard drawn ${visits.map(Math.round).join(', ')} ms after the menu click (the page's clock; first visit first)`);
    expect(Math.min(...visits), 'the dashboard is drawn in under one second after navigation').toBeLessThan(1_000);

    expect(await page.title()).toBe('Dashboard · perkdesk');
    const lastMonth = new Date(`${seed.lastMonth}-01T00:00:00Z`).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
    expect(await figures(page)).toEqual({
      'Total employees': count(seed.employees.total),
      [`Usage last month (${lastMonth})`]: count(seed.lastMonthUsage),
      'Total usage': count(seed.totalUsage),
    });
    await expectSeededDashboard(page, seed);
    // Each of the spec's tables once (docs/decisions.md), under these titles, in this order.
    expect(await page.getByRole('main').getByRole('heading', { level: 2 }).allInnerTexts()).toEqual([
      'Active and deactive employees',
      'Usage history by month',
      'Top 10 Merchant',
      'Top 10 Category',
      'Employees included per asset',
      'Count of employees on assets',
      'Uses confirmed at the till',
    ]);
    // Issue 41: none of the seed's uses was confirmed at a till, and no campaign has a limit.
    const verified = card(page, 'Uses confirmed at the till');
    await until(() => verified.innerText()).toMatch(/Confirmed with a redemption code in /);
    expect(await verified.innerText()).toContain('No campaign has reached its limit.');
    expect(await card(page, 'Top 10 Merchant').getByRole('columnheader').allInnerTexts()).toEqual(['Name', 'Campaigns count', 'Rating']);
    expect(await card(page, 'Employees included per asset').getByRole('columnheader').allInnerTexts()).toEqual(['Asset name', 'Employee count', 'Usage history count']);
    // The doughnut's slices are named with their numbers beside it, not by colour alone.
    expect(await chartFigure(page, 'Active and deactive employees').locator('ul li').allInnerTexts()).toEqual([
      expect.stringMatching(new RegExp(`^Active\\s+${seed.employees.active}\\s+75%$`)),
      expect.stringMatching(new RegExp(`^Deactive\\s+${seed.employees.deactive}\\s+25%$`)),
    ]);
    await expectAccessible(page, '/dashboard at 1280');
    await shot(page, 'dashboard-1280');
    expect(await insideCards(page)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('shows a chart\'s numbers as a table on request', async () => {
    const line = chartFigure(page, `Usage history by month in ${seed.thisYear}`);
    const table = fallbackTable(line);
    // The box the table sits in: 1 px while the table is only read out.
    const shownWidth = async () => (await table.locator('xpath=..').boundingBox())?.width ?? 0;
    // Read out, not shown: a screen reader finds it, the eye does not.
    expect(await shownWidth()).toBeLessThan(2);
    await line.getByRole('button', { name: 'Show the numbers as a table' }).click();
    await until(shownWidth).toBeGreaterThan(100);
    expect(await table.getByRole('columnheader').allInnerTexts()).toEqual(['Month', 'Usage count']);
    await expectAccessible(page, 'the usage table shown', line);
    await shot(page, 'dashboard-usage-table');
    await line.getByRole('button', { name: 'Hide the table' }).click();
    await until(shownWidth).toBeLessThan(2);
  });

  it('draws the chosen year from the picker (this year by default)', async () => {
    const picker = card(page, 'Usage history by month').getByLabel('Year');
    expect(await picker.inputValue()).toBe(String(seed.thisYear));
    await picker.selectOption(String(seed.thisYear - 1));
    const earlier = chartFigure(page, `Usage history by month in ${seed.thisYear - 1}`);
    await until(() => tableRows(fallbackTable(earlier))).toEqual(monthRows(seed.usageIn(seed.thisYear - 1), seed.thisYear - 1));
    await until(() => drawn(earlier)).toBe(true);
    expect(seed.usageIn(seed.thisYear - 1)).not.toEqual(seed.usageIn(seed.thisYear));
    await shot(page, 'dashboard-year-before');
    await picker.selectOption(String(seed.thisYear - 5));
    await until(() => tableRows(fallbackTable(chartFigure(page, `Usage history by month in ${seed.thisYear - 5}`)))).toEqual(monthRows(Array(12).fill(0), seed.thisYear - 5));
    await picker.selectOption(String(seed.thisYear));
    await until(() => tableRows(fallbackTable(chartFigure(page, `Usage history by month in ${seed.thisYear}`)))).toEqual(monthRows(seed.usageIn(seed.thisYear), seed.thisYear));
    expect(errors).toEqual([]);
  });

  it('says "Error: " and the message where a call failed, and the rest still works', async () => {
    // A new tab of the signed-in Admin's: another sign-in would wait for the next TOTP step.
    const failing = await page.context().newPage();
    await failing.goto('/users');
    const failures = consoleErrors(failing);
    await failing.route('**/api/dashboard/usageCategories', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'The category counts are not available.' }) }),
    );
    await failing.route('**/api/dashboard/usageHistory?*', (route) => route.abort('connectionrefused'));
    await failing.goto('/dashboard');
    const categories = card(failing, 'Top 10 Category').getByRole('alert');
    await until(() => categories.innerText()).toBe('Error: The category counts are not available.');
    await until(() => card(failing, 'Usage history by month').getByRole('alert').innerText()).toBe("Error: We've lost the connection");
    expect(await card(failing, 'Top 10 Category').getByRole('table').count()).toBe(0);
    // Everything else is drawn.
    await until(() => drawn(chartFigure(failing, 'Active and deactive employees'))).toBe(true);
    await until(() => cardRows(failing, 'Top 10 Merchant')).toEqual(seed.merchants);
    await until(() => cardRows(failing, 'Count of employees on assets')).toEqual(seed.assetEmployees);
    await expectAccessible(failing, '/dashboard with two failed calls');
    await shot(failing, 'dashboard-failed-calls');
    // The page still works: once the network is back, the year picker draws the line.
    await failing.unroute('**/api/dashboard/usageHistory?*');
    await card(failing, 'Usage history by month').getByLabel('Year').selectOption(String(seed.thisYear - 1));
    await until(() => drawn(chartFigure(failing, `Usage history by month in ${seed.thisYear - 1}`))).toBe(true);
    // The only console errors are the browser's own lines about the failed requests.
    expect(failures.filter((text) => !/Failed to load resource/.test(text))).toEqual([]);
    await failing.close();
  });

  it('fits 1024 px and 390 px: the charts follow their cards, wide tables scroll inside them', async () => {
    for (const [viewport, name] of [
      [TABLET, 'dashboard-1024'],
      [PHONE, 'dashboard-phone'],
    ] as const) {
      await page.setViewportSize(viewport);
      try {
        await page.goto('/dashboard');
        await expectSeededDashboard(page, seed);
        expect(await overflowsHorizontally(page), `sideways page scroll at ${viewport.width} px`).toBe(false);
        expect(await insideCards(page), `a chart or table outside its card at ${viewport.width} px`).toBe(true);
        const doughnut = await canvasState(chartFigure(page, 'Active and deactive employees'));
        const cardWidth = (await card(page, 'Active and deactive employees').boundingBox())?.width ?? 0;
        expect(doughnut.width).toBeLessThanOrEqual(cardWidth);
        await expectAccessible(page, `/dashboard at ${viewport.width}`);
        await shot(page, name);
      } finally {
        await page.setViewportSize(DESKTOP);
      }
    }
    // Back at 1280 the line chart takes its card's new width again.
    const line = chartFigure(page, `Usage history by month in ${seed.thisYear}`);
    const lineCard = card(page, 'Usage history by month');
    await until(async () => (await canvasState(line)).width > ((await lineCard.boundingBox())?.width ?? 0) * 0.8).toBe(true);
    expect(errors).toEqual([]);
  });

  it('is the Call Center operator\'s first screen, with the same numbers', async () => {
    const operator = await suite.signedIn(suite.accounts.operator, '/');
    await waitForPath(operator, '/dashboard');
    await expectSeededDashboard(operator, seed);
    expect(await operator.getByRole('main').getByRole('button', { name: /Export/ }).count()).toBe(0);
    await operator.context().close();
  });
});
