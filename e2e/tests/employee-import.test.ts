import ExcelJS from 'exceljs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/axe';
import { shot } from '../support/browser';
import { DownloadFolder } from '../support/exports';
import { pngBytes } from '../support/images';
import { ListScreen, type ScreenSpec } from '../support/listScreen';
import { useSuite } from '../support/suite';
import { openedDialog, until } from '../support/ui';

const suite = useSuite();
const EMPLOYEES: ScreenSpec = { path: '/employeelist', title: 'Employee list' };
const HEADER = ['Email', 'First name', 'Last name', 'Phone number', 'Asset', 'Active'];

describe('Employee import: a workbook with errors shows them row by row, then the good rows are imported', () => {
  let page: Page;
  let screen: ListScreen;
  let folder = '';
  let workbook = '';
  const downloads = new DownloadFolder();

  beforeAll(async () => {
    const api = await suite.api();
    const png = pngBytes(32, [40, 90, 160], [255, 255, 255]);
    const asset = await api.createAsset({ name: 'Azərsun Holding', contactPerson: 'Rəşad Əliyev', phoneNumber: '994501112233', email: 'hr@azersun.test', barcodePrefix: 'AZS' }, png);
    folder = mkdtempSync(path.join(tmpdir(), 'perkdesk-import-'));
    workbook = path.join(folder, 'employees.xlsx');
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Employees');
    sheet.addRow(HEADER);
    sheet.addRow(['leyla@azersun.test', 'Leyla', 'Əliyeva', 994501234567, asset.id, 'yes']);
    sheet.addRow(['kamran@azersun.test', 'Kamran', 'Hüseynov', '994551234567', 'AZS', '']);
    sheet.addRow(['not-an-email', 'Ayan', 'Quliyeva', '994701234567', 'AZS', '']);
    sheet.addRow(['orxan@azersun.test', 'Orxan', 'Rzayev', '994701234567', 'XYZ', '']);
    sheet.addRow(['samir@azersun.test', 'Samir', 'Əhmədov', '0501234567', asset.id, '']);
    await book.xlsx.writeFile(workbook);
    page = await suite.signedIn(suite.admin, EMPLOYEES.path);
    screen = new ListScreen(page, EMPLOYEES);
    await screen.loaded();
  });

  afterAll(async () => {
    await page?.context().close();
    if (folder) rmSync(folder, { recursive: true, force: true });
    downloads.remove();
  });

  it('downloads the template, shows the dry run with each refused row, and imports the good rows', async () => {
    await screen.button('Import').click();
    const dialog = await openedDialog(page, 'Import employees');
    const template = await downloads.export(page, dialog.getByRole('button', { name: 'Download the template' }));
    expect(template.fileName).toBe('EmployeeImport.xlsx');
    expect(template.header).toEqual(HEADER);
    expect(template.headerBold).toBe(true);
    await dialog.getByLabel('Workbook (.xlsx)').setInputFiles(workbook);
    await dialog.getByRole('button', { name: 'Check the file' }).click();
    await dialog.getByText('5 rows read: 2 to add, 0 to update, 3 refused (left out).', { exact: true }).waitFor();
    const rows = await dialog.getByRole('table', { name: 'Refused rows' }).locator('tbody tr').allInnerTexts();
    expect(rows.map((row) => row.split('\t').map((cell) => cell.trim()))).toEqual([
      ['4', 'Email', 'Wrong email format. E.g. name@example.com'],
      ['5', 'Asset', 'No asset has the barcode prefix XYZ.'],
      ['6', 'Phone number', 'Wrong phone format. E.g. 994501234567'],
    ]);
    // Nothing written by the check.
    expect((await (await suite.api()).call<{ totalCount: number }>('GET', 'employee/forAdmin')).totalCount).toBe(0);
    await expectAccessible(page, 'the import dry run', dialog);
    await shot(page, 'employee-import-1280');
    await dialog.getByRole('button', { name: 'Import 2 rows' }).click();
    await dialog.waitFor({ state: 'detached' });
    await until(() => screen.column('Email')).toEqual(expect.arrayContaining(['leyla@azersun.test', 'kamran@azersun.test']));
    expect((await (await suite.api()).call<{ totalCount: number }>('GET', 'employee/forAdmin')).totalCount).toBe(2);
  });
});
