import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../support/api';
import { expectAccessible } from '../support/axe';
import { DESKTOP, PHONE, shot, TABLET } from '../support/browser';
import { chartFigure, consoleErrors, drawn, fallbackTable, tableRows } from '../support/charts';
import { DownloadFolder } from '../support/exports';
import { seedReporting, type ReportingSeed } from '../support/reportingSeed';
import { useSuite } from '../support/suite';
import { overflowsHorizontally, until } from '../support/ui';

const suite = useSuite({ operator: { email: 'lamiya.callcenter@perkdesk.test', firstName: 'Lamiyə', lastName: 'Cəfərova', password: 'Operator-pass-2026' } });

const KINDS = [
  { kind: 'asset', tab: 'Asset' },
  { kind: 'partner', tab: 'Partner' },
  { kind: 'campaign', tab: 'Campaign' },
  { kind: 'employee', tab: 'Employee' },
] as const;

const panel = (page: Page) => page.getByRole('tabpanel');
const namesTable = (page: Page, tab: string) => panel(page).getByRole('table', { name: `${tab} names`, exact: true });
const pie = (page: Page, tab: string) => chartFigure(panel(page), `${tab} by state`);
const badge = (page: Page) => panel(page).getByText(/^Total: \d+$/);

/** One tab as the seed says it must be: its badge, its pie and its numbers, its names with their states. */
async function expectTab(page: Page, seed: ReportingSeed, kind: (typeof KINDS)[number]) {
  const counts = seed.counts[kind.kind];
  await until(() => badge(page).innerText()).toBe(`Total: ${counts.all}`);
  await until(() => drawn(pie(page, kind.tab))).toBe(true);
  expect(await tableRows(fallbackTable(pie(page, kind.tab)))).toEqual([
    ['Active', String(counts.active)],
    ['Deactive', String(counts.deactive)],
    ['Deleted', String(counts.deleted)],
  ]);
  await until(() => tableRows(namesTable(page, kind.tab))).toEqual(seed.names[kind.kind].map(({ name, state }) => [name, state]));
}

describe('Reports: four tabs with names, pie and total; both spreadsheets; roles and sizes', () => {
  let seed: ReportingSeed;
  let page: Page;
  let errors: string[];
  const downloads = new DownloadFolder();

  beforeAll(async () => {
    const api = await suite.api();
    await api.setRole(suite.accounts.operator.email, Role.CallCenter);
    seed = await seedReporting(api, suite.server.dbPath);
    page = await suite.signedIn(suite.admin, '/reports');
    errors = consoleErrors(page);
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
  });

  afterAll(() => downloads.remove());

  it('opens on Asset and shows every tab with its names, its pie of states and the total badge', async () => {
    expect(await page.getByRole('tab').allInnerTexts()).toEqual(['Asset', 'Partner', 'Campaign', 'Employee']);
    expect(await page.getByRole('tab', { name: 'Asset' }).getAttribute('aria-selected')).toBe('true');
    for (const kind of KINDS) {
      await page.getByRole('tab', { name: kind.tab, exact: true }).click();
      expect(await page.getByRole('tab', { name: kind.tab, exact: true }).getAttribute('aria-selected')).toBe('true');
      await expectTab(page, seed, kind);
      // The slices are named with their numbers beside the pie, not by colour alone.
      expect(await pie(page, kind.tab).locator('ul li').count()).toBe(3);
      await expectAccessible(page, `/reports, tab ${kind.tab}`);
      await shot(page, `reports-${kind.kind}-1280`);
    }
    expect(errors).toEqual([]);
  });

  it('moves between tabs with the arrow keys', async () => {
    await page.getByRole('tab', { name: 'Asset', exact: true }).click();
    await page.getByRole('tab', { name: 'Asset', exact: true }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('tab', { name: 'Partner', exact: true }).getAttribute('aria-selected')).toBe('true');
    await expectTab(page, seed, KINDS[1]);
    await page.keyboard.press('End');
    await expectTab(page, seed, KINDS[3]);
  });

  it('searches the names (Azerbaijani letters folded); the pie and badge keep the whole kind', async () => {
    await page.getByRole('tab', { name: 'Employee', exact: true }).click();
    await expectTab(page, seed, KINDS[3]);
    const search = panel(page).getByRole('searchbox', { name: 'Search' });
    await search.fill('gulnar');
    await until(() => tableRows(namesTable(page, 'Employee'))).toEqual([['Gülnar Şahinova', 'Active']]);
    expect(await badge(page).innerText()).toBe(`Total: ${seed.counts.employee.all}`);
    await search.fill('murad');
    await until(() => tableRows(namesTable(page, 'Employee'))).toEqual([['Murad Kərimov', 'Deleted']]);
    await search.fill('nobody at all');
    await until(() => tableRows(namesTable(page, 'Employee'))).toEqual([['No information found']]);
    await shot(page, 'reports-search-empty');
    await search.fill('');
    await until(() => tableRows(namesTable(page, 'Employee'))).toEqual(seed.names.employee.map(({ name, state }) => [name, state]));
    // Sorting by name, A to Z.
    await namesTable(page, 'Employee').getByRole('columnheader', { name: 'Name', exact: true }).getByRole('button').click();
    const sorted = seed.names.employee.map(({ name }) => name).sort((a, b) => a.localeCompare(b, 'az'));
    await until(async () => (await tableRows(namesTable(page, 'Employee'))).map((row) => row[0])[0]).toBe(sorted[0]);
  });

  it('downloads Reports-count.xlsx and Reports-name.xlsx from Export, both opening as workbooks', async () => {
    const arrived: Download[] = [];
    page.on('download', (download) => arrived.push(download));
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await until(() => arrived.length, 15_000).toBe(2);
    const [counts, names] = await Promise.all(arrived.map((download) => downloads.read(download)));
    expect(counts.fileName).toBe('Reports-count.xlsx');
    expect(counts.headerBold).toBe(true);
    expect(counts.header).toEqual(['Report', 'Active', 'Deactive', 'Deleted', 'Total']);
    expect(counts.data).toEqual(
      KINDS.map(({ kind, tab }) => [tab, ...[seed.counts[kind].active, seed.counts[kind].deactive, seed.counts[kind].deleted, seed.counts[kind].all].map(String)]),
    );
    // The counts are numbers in the sheet, not text (ExcelJS ValueType 2 = Number).
    expect(counts.sheets[0].firstRowTypes.slice(1)).toEqual([2, 2, 2, 2]);

    expect(names.fileName).toBe('Reports-name.xlsx');
    expect(names.sheets.map((sheet) => sheet.name)).toEqual(['Asset', 'Partner', 'Campaign', 'Employee']);
    for (const [index, { kind }] of KINDS.entries()) {
      const sheet = names.sheets[index];
      expect(sheet.headerBold).toBe(true);
      expect(sheet.header).toEqual(['Id', 'Name', 'State']);
      expect(sheet.data.map((row) => [row[1], row[2]])).toEqual(seed.names[kind].map(({ name, state }) => [name, state]));
      expect(sheet.firstRowTypes[0]).toBe(2);
    }
    await until(() => page.getByRole('status', { name: 'Confirmations' }).innerText()).toContain('Reports-count.xlsx and Reports-name.xlsx downloaded');
    expect(errors).toEqual([]);
  });

  it('gives a Call Center operator every tab but no Export', async () => {
    const operator = await suite.signedIn(suite.accounts.operator, '/reports');
    await operator.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await expectTab(operator, seed, KINDS[0]);
    expect(await operator.getByRole('button', { name: 'Export' }).count()).toBe(0);
    await operator.getByRole('tab', { name: 'Campaign', exact: true }).click();
    await expectTab(operator, seed, KINDS[2]);
    await expectAccessible(operator, '/reports as Call Center');
    await shot(operator, 'reports-call-center');
    await operator.context().close();
  });

  it('shows "Error: " in the pie and the lost connection in the list when a report fails', async () => {
    const failing = await suite.signedIn(suite.admin, '/users');
    const failures = consoleErrors(failing);
    await failing.route('**/api/report/partner?*', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'The partner report is not available.' }) }),
    );
    await failing.goto('/reports');
    await expectTab(failing, seed, KINDS[0]);
    await failing.getByRole('tab', { name: 'Partner', exact: true }).click();
    await until(() => panel(failing).getByRole('region', { name: 'Partner by state' }).getByRole('alert').innerText()).toBe('Error: The partner report is not available.');
    await until(() => tableRows(namesTable(failing, 'Partner'))).toEqual([["We've lost the connection"]]);
    await expectAccessible(failing, '/reports with a failed tab');
    // The other tabs still work.
    await failing.getByRole('tab', { name: 'Employee', exact: true }).click();
    await expectTab(failing, seed, KINDS[3]);
    expect(failures.filter((text) => !/Failed to load resource/.test(text))).toEqual([]);
    await failing.context().close();
  });

  it('fits 1024 px and 390 px: the pie follows its card, the names scroll inside theirs', async () => {
    for (const [viewport, name] of [
      [TABLET, 'reports-1024'],
      [PHONE, 'reports-phone'],
    ] as const) {
      await page.setViewportSize(viewport);
      try {
        await page.goto('/reports');
        await expectTab(page, seed, KINDS[0]);
        await page.getByRole('tab', { name: 'Employee', exact: true }).click();
        await expectTab(page, seed, KINDS[3]);
        expect(await overflowsHorizontally(page), `sideways page scroll at ${viewport.width} px`).toBe(false);
        const pieBox = await pie(page, 'Employee').locator('canvas').boundingBox();
        const cardBox = await panel(page).getByRole('region', { name: 'Employee by state' }).boundingBox();
        expect(pieBox && cardBox && pieBox.x >= cardBox.x && pieBox.x + pieBox.width <= cardBox.x + cardBox.width).toBe(true);
        await expectAccessible(page, `/reports at ${viewport.width}`);
        await shot(page, name);
      } finally {
        await page.setViewportSize(DESKTOP);
      }
    }
    expect(errors).toEqual([]);
  });
});
