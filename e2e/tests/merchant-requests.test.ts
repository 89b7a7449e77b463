import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/axe';
import { DESKTOP, PHONE, shot } from '../support/browser';
import { DownloadFolder } from '../support/exports';
import { pngBytes } from '../support/images';
import { checkFitsDesktop, ListScreen, type ScreenSpec } from '../support/listScreen';
import { cityNameAz, insertMerchantRequests } from '../support/peopleDb';
import { useSuite } from '../support/suite';
import { openedDialog, overflowsHorizontally, until } from '../support/ui';

const suite = useSuite();
const REQUESTS: ScreenSpec = { path: '/by-merchant', title: 'Requests by Merchant' };

describe('Requests by Merchant: read-only table, file download, details, export', () => {
  let page: Page;
  let screen: ListScreen;
  const downloads = new DownloadFolder();
  const logo = pngBytes(48, [200, 120, 40], [255, 255, 255]);
  let cities = '';

  beforeAll(async () => {
    const api = await suite.api();
    const asset = await api.createAsset({ name: 'Fayl daşıyıcısı', contactPerson: 'Rəşad Əliyev', phoneNumber: '994501112233', email: 'files@perkdesk.test', barcodePrefix: 'FIL' }, logo);
    insertMerchantRequests(suite.server.dbPath, [
      { partnerName: 'Şirin Çay Evi', fullName: 'Səbinə Hüseynova', email: 'sabina.huseynova@sirin-cay-evi-merchant.test', phone: '994552001122', fileOfAsset: asset.id, cityIds: [1, 2] },
      { partnerName: 'Qala Kafe', fullName: 'Orxan Quliyev', email: 'orxan@qala.test', phone: '994703334455', cityIds: [3] },
    ]);
    cities = [cityNameAz(suite.server.dbPath, 1), cityNameAz(suite.server.dbPath, 2)].sort((a, b) => a.localeCompare(b, 'az')).join(', ');
    page = await suite.signedIn(suite.admin, REQUESTS.path);
    screen = new ListScreen(page, REQUESTS);
    await screen.loaded();
  });

  afterAll(() => downloads.remove());

  beforeEach(() => screen.open());

  it('lists partner name, full name, email, phone, file and cities, read-only', async () => {
    await page.getByRole('heading', { name: 'Requests by Merchant', level: 1 }).waitFor();
    expect(await screen.headers()).toEqual(['Partner name', 'Full name', 'Email', 'Phone number', 'File', 'Cities', 'Actions']);
    await until(() => screen.column('Partner name')).toEqual(expect.arrayContaining(['Şirin Çay Evi', 'Qala Kafe']));
    expect(await screen.row('Şirin').getByRole('cell').nth(5).textContent()).toBe(cities);
    await screen.row('Qala').getByText('No file', { exact: true }).waitFor();
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await screen.button('Create').count()).toBe(0);
    expect(await screen.row('Şirin').getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')))).toEqual(['View']);
    await expectAccessible(page, '/by-merchant at 1280');
    await checkFitsDesktop(screen, 'merchant-requests-1280', { statusColumn: false });
  });

  it('downloads the applicant’s file from its link', async () => {
    const link = screen.row('Şirin').getByRole('link', { name: 'Download the file of Səbinə Hüseynova' });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^\w+\.png$/);
    const saved = `${downloads.dir}/${download.suggestedFilename()}`;
    await download.saveAs(saved);
    expect(Buffer.compare(readFileSync(saved), logo)).toBe(0);
  });

  it('filters by partner name and opens Merchant request details', async () => {
    await screen.showFilter();
    await screen.filterField('Partner name').fill('sirin');
    await screen.shows('Partner name', ['Şirin Çay Evi']);
    await screen.tool('Şirin Çay Evi', 'View').click();
    const drawer = await openedDialog(page, 'Merchant request details');
    for (const text of ['Şirin Çay Evi', 'Səbinə Hüseynova', 'sabina.huseynova@sirin-cay-evi-merchant.test', cities]) await drawer.getByText(text, { exact: true }).waitFor();
    await drawer.getByRole('link', { name: 'Download the file of Səbinə Hüseynova' }).waitFor();
    await expectAccessible(page, 'Merchant request details', drawer);
    await shot(page, 'merchant-request-details');
    await drawer.getByRole('button', { name: 'Close' }).click();
  });

  it('exports MerchantRequests.xlsx', async () => {
    const exported = await downloads.export(page, screen.button('Export'));
    expect(exported.fileName).toBe('MerchantRequests.xlsx');
    expect(exported.headerBold).toBe(true);
    expect(exported.data.length).toBe(2);
    expect(exported.data.flat()).toEqual(expect.arrayContaining(['Şirin Çay Evi', 'Orxan Quliyev', cities]));
    // As the screen shows them: the phone in its +994 form, the file as an absolute link that opens it.
    const sirin = exported.data.find((row) => row[0] === 'Şirin Çay Evi')!;
    expect(sirin[exported.header.indexOf('Phone')]).toBe('+994 55 200 11 22');
    const file = sirin[exported.header.indexOf('File')];
    expect(file).toMatch(new RegExp(`^${suite.server.baseUrl}/cdn/\\w+\\.png$`));
    expect(exported.links[file]).toBe(file);
    const opened = await fetch(file);
    expect(opened.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await opened.arrayBuffer()), logo)).toBe(0);
  });

  it('works at 390 px', async () => {
    await page.setViewportSize(PHONE);
    try {
      await screen.open();
      await until(() => screen.column('Partner name')).toContain('Qala Kafe');
      expect(await overflowsHorizontally(page)).toBe(false);
      await expectAccessible(page, '/by-merchant at 390');
      await shot(page, 'merchant-requests-phone');
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });
});
