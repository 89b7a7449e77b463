import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/axe';
import { DESKTOP, PHONE, shot } from '../support/browser';
import { DownloadFolder } from '../support/exports';
import { pngBytes } from '../support/images';
import { checkFitsDesktop, ListScreen, type ScreenSpec } from '../support/listScreen';
import { insertEmployees } from '../support/peopleDb';
import { useSuite } from '../support/suite';
import { openedDialog, overflowsHorizontally, reachable, until } from '../support/ui';
import type { Schema } from '../support/contract';

const suite = useSuite();
const EMPLOYEES: ScreenSpec = { path: '/employeelist', title: 'Employee list' };

type EmployeeRow = Schema<'EmployeeRow'>;

describe('Employee list: filters, status, drawer, edit, export by asset, delete', () => {
  let page: Page;
  let screen: ListScreen;
  const downloads = new DownloadFolder();
  const ids: number[] = [];

  const stored = async (id: number) => (await suite.api()).call<EmployeeRow>('GET', `employee/${id}`).catch(() => undefined);

  beforeAll(async () => {
    const api = await suite.api();
    const png = (r: number) => pngBytes(32, [r, 90, 160], [255, 255, 255]);
    const azersun = await api.createAsset({ name: 'Azərsun Holding', contactPerson: 'Rəşad Əliyev', phoneNumber: '994501112233', email: 'hr@azersun.test', barcodePrefix: 'AZS' }, png(40));
    const bakcell = await api.createAsset({ name: 'Bakcell', contactPerson: 'Nigar Quliyeva', phoneNumber: '994552223344', email: 'hr@bakcell.test', barcodePrefix: 'BKC' }, png(90));
    ids.push(
      ...insertEmployees(suite.server.dbPath, [
        { assetId: azersun.id, firstName: 'İlkin', lastName: 'Məmmədov', email: 'ilkin.mammadov@azersun-holding-employees.test', phone: '994501234567' },
        { assetId: azersun.id, firstName: 'Gülnar', lastName: 'Şahinova', email: 'gulnar@azersun.test', phone: '994702223344', isActive: false },
        { assetId: bakcell.id, firstName: 'Çingiz', lastName: 'İsmayılov', email: 'cingiz@bakcell.test', phone: '994553334455' },
      ]),
    );
    page = await suite.signedIn(suite.admin, EMPLOYEES.path);
    screen = new ListScreen(page, EMPLOYEES);
    await screen.loaded();
  });

  afterAll(() => downloads.remove());

  beforeEach(() => screen.open());

  it('lists the employees with the status switch and badge, and fits 1280 px', async () => {
    await page.getByRole('heading', { name: 'Employee list', level: 1 }).waitFor();
    expect(await screen.headers()).toEqual(['', 'First name', 'Last name', 'Email', 'Phone number', 'Asset name', 'Status', 'Actions']);
    await until(() => screen.column('First name')).toEqual(expect.arrayContaining(['İlkin', 'Gülnar', 'Çingiz']));
    await screen.row('Gülnar').getByText('Inactive', { exact: true }).waitFor();
    await screen.row('İlkin').getByText('Active', { exact: true }).waitFor();
    expect(await screen.row('İlkin').getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')))).toEqual(['View', 'Edit', 'Delete']);
    await expectAccessible(page, '/employeelist at 1280');
    await checkFitsDesktop(screen, 'employees-1280');
  });

  it('filters by full name as staff type it, e-mail, phone, asset and status', async () => {
    await screen.showFilter();
    await screen.filterField('Full name').fill('cingiz');
    await screen.shows('First name', ['Çingiz']);
    await screen.filterField('Full name').fill('');
    await screen.filterField('Asset name').fill('azərsun');
    await until(() => screen.column('First name')).toEqual(expect.arrayContaining(['İlkin', 'Gülnar']));
    expect((await screen.column('First name')).length).toBe(2);
    await screen.filterField('Status').selectOption({ label: 'Inactive' });
    await screen.shows('First name', ['Gülnar']);
    await expectAccessible(page, '/employeelist with the filter');
    await shot(page, 'employees-filter');
    await screen.filterField('Status').selectOption({ label: 'All' });
    await screen.filterField('Asset name').fill('');
    await screen.filterField('Phone number').fill('553334');
    await screen.shows('First name', ['Çingiz']);
    await screen.filterField('Phone number').fill('');
    await screen.filterField('Email').fill('gulnar@');
    await screen.shows('First name', ['Gülnar']);
  });

  it('switches the status, opens Employee details and edits with the spec rules', async () => {
    await screen.statusSwitch('Gülnar').click();
    await until(() => stored(ids[1]).then((row) => row?.isActive)).toBe(true);
    await screen.row('Gülnar').getByText('Active', { exact: true }).waitFor();

    await screen.tool('İlkin', 'View').click();
    const drawer = await openedDialog(page, 'Employee details');
    for (const text of ['İlkin', 'Məmmədov', 'ilkin.mammadov@azersun-holding-employees.test', 'Azərsun Holding']) await drawer.getByText(text, { exact: true }).waitFor();
    await expectAccessible(page, 'Employee details', drawer);
    await shot(page, 'employee-details');
    await drawer.getByRole('button', { name: 'Close' }).click();

    await screen.tool('İlkin', 'Edit').click();
    const form = await screen.form('Edit Employee');
    expect(await form.field('First name').inputValue()).toBe('İlkin');
    await form.field('Email').fill('ilkin@azersun');
    await form.field('Last name').fill('');
    await form.save().click();
    await form.message('Wrong email format. E.g. name@example.com').waitFor();
    await form.message('Last name is required').waitFor();
    await expectAccessible(page, 'Edit Employee with messages', form.root);
    await shot(page, 'employee-edit-validation');
    await form.field('Email').fill('ilkin@azersun.test');
    await form.field('Last name').fill('Məmmədli');
    await form.phone('070', '5554433');
    await form.saveAndClose();
    await until(() => stored(ids[0]).then((row) => row && [row.email, row.lastName, row.phone])).toEqual(['ilkin@azersun.test', 'Məmmədli', '994705554433']);
  });

  it('exports one asset’s employees as EmployeeList.xlsx', async () => {
    await screen.button('Export').click();
    const dialog = await openedDialog(page, 'Export Excel');
    await dialog.getByRole('button', { name: 'Download' }).click();
    await dialog.getByText('Choose an asset', { exact: true }).waitFor();
    await expectAccessible(page, 'Employee export dialog', dialog);
    const form = await screen.form('Export Excel');
    await form.pick(form.field('Asset name'), 'Bak', 'Bakcell');
    const exported = await downloads.export(page, dialog.getByRole('button', { name: 'Download' }));
    expect(exported.fileName).toBe('EmployeeList.xlsx');
    expect(exported.headerBold).toBe(true);
    expect(exported.data.length).toBe(1);
    expect(exported.data[0]).toEqual(expect.arrayContaining(['Çingiz', 'İsmayılov', 'cingiz@bakcell.test', 'Bakcell']));
  });

  it('works at 390 px: the list and the edit form', async () => {
    await page.setViewportSize(PHONE);
    try {
      await screen.open();
      expect(await overflowsHorizontally(page)).toBe(false);
      await expectAccessible(page, '/employeelist at 390');
      await shot(page, 'employees-phone');
      await screen.tool('Çingiz', 'Edit').click();
      const form = await screen.form('Edit Employee');
      expect(await reachable(page, form.save())).toBe(true);
      expect(await overflowsHorizontally(page)).toBe(false);
      await expectAccessible(page, 'Edit Employee at 390', form.root);
      await shot(page, 'employee-edit-phone');
      await form.cancel();
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it('deletes after the question', async () => {
    await screen.tool('Çingiz', 'Delete').click();
    const question = await openedDialog(page, 'Delete');
    await question.getByText('Are you sure to delete?').waitFor();
    await expectAccessible(page, 'Delete employee', question);
    await question.getByRole('button', { name: 'Yes' }).click();
    await until(() => stored(ids[2])).toBeUndefined();
    await until(() => screen.column('First name')).not.toContain('Çingiz');
  });
});
