import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/axe';
import { DESKTOP, PHONE, shot } from '../support/browser';
import { DownloadFolder } from '../support/exports';
import { pngBytes } from '../support/images';
import { checkFitsDesktop, ListScreen, type ScreenSpec } from '../support/listScreen';
import { insertEmployees, insertWishes } from '../support/peopleDb';
import { useSuite } from '../support/suite';
import { openedDialog, overflowsHorizontally, until } from '../support/ui';

const suite = useSuite();
const REQUESTS: ScreenSpec = { path: '/requests', title: 'Requests by Employee' };

describe('Requests by Employee: read-only table, status from the row, filters, details, export', () => {
  let page: Page;
  let screen: ListScreen;
  const downloads = new DownloadFolder();
  const ids: number[] = [];

  const stored = async (id: number) => (await suite.api()).call<{ status: number }>('GET', `wishList/${id}`);

  beforeAll(async () => {
    const api = await suite.api();
    const png = (r: number) => pngBytes(32, [r, 90, 160], [255, 255, 255]);
    const azersun = await api.createAsset({ name: 'Azərsun Holding', contactPerson: 'Rəşad Əliyev', phoneNumber: '994501112233', email: 'hr@azersun.test', barcodePrefix: 'AZS' }, png(40));
    const bakcell = await api.createAsset({ name: 'Bakcell', contactPerson: 'Nigar Quliyeva', phoneNumber: '994552223344', email: 'hr@bakcell.test', barcodePrefix: 'BKC' }, png(90));
    const [ilkin, gulnar] = insertEmployees(suite.server.dbPath, [
      { assetId: azersun.id, firstName: 'İlkin', lastName: 'Məmmədov', email: 'ilkin@azersun.test', phone: '994501234567' },
      { assetId: bakcell.id, firstName: 'Gülnar', lastName: 'Şahinova', email: 'gulnar@bakcell.test', phone: '994702223344' },
    ]);
    ids.push(
      ...insertWishes(suite.server.dbPath, [
        { employeeId: ilkin, text: 'Bravo marketlərində endirim olsun', requestDate: '2026-11-20T09:30:00.000Z' },
        { employeeId: gulnar, text: 'İdman zalı kampaniyası istəyirik', requestDate: '2026-11-21T09:30:00.000Z', status: 2 },
      ]),
    );
    page = await suite.signedIn(suite.admin, REQUESTS.path);
    screen = new ListScreen(page, REQUESTS);
    await screen.loaded();
  });

  afterAll(() => downloads.remove());

  beforeEach(() => screen.open());

  it('lists employee full name, asset name, text, request date and the status', async () => {
    await page.getByRole('heading', { name: 'Requests by Employee', level: 1 }).waitFor();
    expect(await screen.headers()).toEqual(['Employee full name', 'Asset name', 'Text', 'Request date', 'Status', 'Actions']);
    await until(() => screen.column('Employee full name')).toEqual(expect.arrayContaining(['İlkin Məmmədov', 'Gülnar Şahinova']));
    expect(await screen.row('İlkin').getByRole('combobox', { name: 'Request status: İlkin Məmmədov' }).inputValue()).toBe('0');
    expect(await screen.row('Gülnar').getByRole('combobox').inputValue()).toBe('2');
    expect(await page.getByRole('main').getByRole('checkbox').count()).toBe(0);
    expect(await screen.button('Create').count()).toBe(0);
    await expectAccessible(page, '/requests at 1280');
    await checkFitsDesktop(screen, 'employee-requests-1280');
  });

  it('sets a request in review from its row', async () => {
    await screen.row('İlkin').getByRole('combobox').selectOption({ label: 'In review' });
    await until(() => stored(ids[0]).then((row) => row.status)).toBe(1);
    await until(() => screen.row('İlkin').getByRole('combobox').inputValue()).toBe('1');
  });

  it('filters by employee full name, asset, text and request date; opens Request details', async () => {
    await screen.showFilter();
    await screen.filterField('Employee full name').fill('gulnar');
    await screen.shows('Employee full name', ['Gülnar Şahinova']);
    await screen.filterField('Employee full name').fill('');
    await screen.filterField('Asset name').selectOption({ label: 'Azərsun Holding' });
    await screen.shows('Employee full name', ['İlkin Məmmədov']);
    await page.getByRole('button', { name: /Asset name: Azərsun Holding/ }).waitFor();
    await screen.filterField('Asset name').selectOption({ label: 'All' });
    await screen.filterField('Text').fill('idman');
    await screen.shows('Employee full name', ['Gülnar Şahinova']);
    await screen.filterField('Text').fill('');
    // Dates are typed as the panel shows them; text that is not a date is not applied and says how to type one.
    await screen.filterField('Request date').fill('31-11-2026');
    await screen.filterField('Request date').blur();
    await page.getByText('Enter the date as dd-mm-yyyy').waitFor();
    await screen.filterField('Request date').fill('20-11-2026');
    await screen.shows('Employee full name', ['İlkin Məmmədov']);
    await page.getByRole('button', { name: /Request date: 20-11-2026/ }).waitFor();
    await expectAccessible(page, '/requests with the filter');
    await shot(page, 'employee-requests-filter');
    await screen.tool('İlkin Məmmədov', 'View').click();
    const drawer = await openedDialog(page, 'Request details');
    for (const text of ['İlkin Məmmədov', 'ilkin@azersun.test', 'Azərsun Holding', 'Bravo marketlərində endirim olsun']) await drawer.getByText(text, { exact: true }).waitFor();
    await expectAccessible(page, 'Request details', drawer);
    await drawer.getByRole('button', { name: 'Close' }).click();
  });

  it('exports WishLists.xlsx', async () => {
    const exported = await downloads.export(page, screen.button('Export'));
    expect(exported.fileName).toBe('WishLists.xlsx');
    expect(exported.headerBold).toBe(true);
    expect(exported.data.length).toBe(2);
    expect(exported.data.flat()).toEqual(expect.arrayContaining(['İlkin Məmmədov', 'Bravo marketlərində endirim olsun']));
  });

  it('works at 390 px', async () => {
    await page.setViewportSize(PHONE);
    try {
      await screen.open();
      await until(() => screen.column('Employee full name')).toContain('Gülnar Şahinova');
      expect(await overflowsHorizontally(page)).toBe(false);
      await expectAccessible(page, '/requests at 390');
      await shot(page, 'employee-requests-phone');
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });
});
