import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../support/api';
import { expectAccessible } from '../support/axe';
import { DESKTOP, PHONE, shot } from '../support/browser';
import { createCampaign, createCategory } from '../support/campaignsApi';
import { DownloadFolder } from '../support/exports';
import { pngBytes } from '../support/images';
import { checkFitsDesktop, ListScreen, type ScreenSpec } from '../support/listScreen';
import { insertEmployees, insertUsage } from '../support/peopleDb';
import { useSuite } from '../support/suite';
import { openedDialog, overflowsHorizontally, until } from '../support/ui';

const Role = { User: 1, CallCenter: 2 } as const;
const suite = useSuite({
  operator: { email: 'narmin.callcenter@perkdesk.test', firstName: 'Narmin', lastName: 'Valiyeva', password: 'Operator-pass-2026' },
  clerk: { email: 'tural.user@perkdesk.test', firstName: 'Tural', lastName: 'Hasanov', password: 'Clerk-pass-2026' },
});
const USAGE: ScreenSpec = { path: '/usagehistory', title: 'Usage history' };
const COLUMNS = ['Employee email', 'Asset name', 'Partner name', 'Campaign name', 'Merchant category', 'Date', 'Discount percent', 'Verified', 'Branch', 'Actions'];

const ILKIN = 'ilkin@azersun.test';
const GULNAR = 'gulnar@bakcell.test';
const CINGIZ = 'cingiz@azersun.test';

/**
 * The uses, at instants chosen around the browser's (Asia/Baku, +04:00) day
 * boundaries: the March of a Baku user holds the first three, not the fourth
 * (01-04 00:30 there), though in UTC days it would be the other way round.
 */
const USES = {
  ilkinWeekend: { employee: ILKIN, campaign: 'weekend', at: '2026-02-28T21:00:00.000Z', shown: '01-03-2026 01:00', rating: 4 },
  gulnarAraz: { employee: GULNAR, campaign: 'araz', at: '2026-03-15T08:00:00.000Z', shown: '15-03-2026 12:00' },
  // Confirmed at Bravo's till with a redemption code, at its branch.
  cingizCoffee: { employee: CINGIZ, campaign: 'coffee', at: '2026-03-31T19:30:00.000Z', shown: '31-03-2026 23:30', verified: true },
  ilkinAraz: { employee: ILKIN, campaign: 'araz', at: '2026-03-31T20:30:00.000Z', shown: '01-04-2026 00:30' },
  gulnarWeekend: { employee: GULNAR, campaign: 'weekend', at: '2026-02-10T10:00:00.000Z', shown: '10-02-2026 14:00' },
  cingizWeekend: { employee: CINGIZ, campaign: 'weekend', at: '2026-04-20T10:00:00.000Z', shown: '20-04-2026 14:00' },
} as const;
type UseName = keyof typeof USES;

describe('Usage History: list, server pickers and dates in the filter, details with the status, Admin delete, export by dates', () => {
  let page: Page;
  let screen: ListScreen;
  const downloads = new DownloadFolder();
  const ids = {} as Record<UseName, number>;

  const stored = async (id: number) => (await suite.api()).call<{ status: number }>('GET', `usageHistory/${id}`);
  /** The Date column, sorted: uses are told apart by their instants. */
  const dates = async () => (await screen.column('Date')).sort();
  const shownOf = (...names: UseName[]) => names.map((name) => USES[name].shown).sort();
  /** Waits until the list shows exactly these uses. */
  const showsUses = (...names: UseName[]) => until(dates).toEqual(shownOf(...names));
  /** Types into a filter picker and chooses the option named `option` among what the server found. */
  const pick = async (label: string, search: string, option: string) => {
    const field = screen.filterField(label);
    await field.click();
    await field.fill(search);
    await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
    await until(() => field.inputValue()).toBe(option);
  };

  beforeAll(async () => {
    const api = await suite.api();
    await api.setRole(suite.accounts.operator.email, Role.CallCenter);
    await api.setRole(suite.accounts.clerk.email, Role.User);
    const png = (r: number) => pngBytes(32, [r, 90, 160], [255, 255, 255]);
    const azersun = await api.createAsset({ name: 'Azərsun Holding', contactPerson: 'Rəşad Əliyev', phoneNumber: '994501112233', email: 'hr@azersun.test', barcodePrefix: 'AZS' }, png(40));
    const bakcell = await api.createAsset({ name: 'Bakcell', contactPerson: 'Nigar Quliyeva', phoneNumber: '994552223344', email: 'hr@bakcell.test', barcodePrefix: 'BKC' }, png(90));
    const city = { cityId: 1, address: 'Nizami küç. 10', latitude: 40.3777, longitude: 49.892 };
    const bravo = await api.createPartner({ name: 'Bravo Market', contactPersonFirstName: 'Elvin', contactPersonLastName: 'Quliyev', phoneNumber: '994503334455', email: 'info@bravo.test', cities: [city] });
    const araz = await api.createPartner({ name: 'Araz Market', contactPersonFirstName: 'Səbinə', contactPersonLastName: 'Rəhimova', phoneNumber: '994704445566', email: 'info@araz.test', cities: [city] });
    const market = await createCategory(api, { nameAz: 'Ərzaq', nameEn: 'Groceries', nameRu: 'Продукты' });
    const cafe = await createCategory(api, { nameAz: 'Kafe', nameEn: 'Cafe', nameRu: 'Кафе' });
    const campaign = (partnerId: number, campaignCategoryId: number, discountPercent: number, nameAz: string) =>
      createCampaign(api, { partnerId, campaignCategoryId, discountPercent, nameAz, nameEn: nameAz, nameRu: nameAz }, png(120), png(200));
    const campaigns = {
      weekend: (await campaign(bravo.id, market.id, 15, 'Həftəsonu endirimi')).id,
      araz: (await campaign(araz.id, market.id, 10, 'Araz kartı')).id,
      coffee: (await campaign(bravo.id, cafe.id, 20, 'Səhər qəhvəsi')).id,
    };
    const [ilkin, gulnar, cingiz] = insertEmployees(suite.server.dbPath, [
      { assetId: azersun.id, firstName: 'İlkin', lastName: 'Məmmədov', email: ILKIN, phone: '994501234567' },
      { assetId: bakcell.id, firstName: 'Gülnar', lastName: 'Şahinova', email: GULNAR, phone: '994702223344' },
      { assetId: azersun.id, firstName: 'Çingiz', lastName: 'Əliyev', email: CINGIZ, phone: '994557654321' },
    ]);
    const employees: Record<string, number> = { [ILKIN]: ilkin, [GULNAR]: gulnar, [CINGIZ]: cingiz };
    const names = Object.keys(USES) as UseName[];
    const inserted = insertUsage(
      suite.server.dbPath,
      names.map((name) => {
        const use: { employee: string; campaign: keyof typeof campaigns; at: string; rating?: number; verified?: boolean } = USES[name];
        return { employeeId: employees[use.employee], campaignId: campaigns[use.campaign], at: use.at, rating: use.rating, verified: use.verified };
      }),
    );
    names.forEach((name, index) => (ids[name] = inserted[index]));
    page = await suite.signedIn(suite.admin, USAGE.path);
    screen = new ListScreen(page, USAGE);
    await screen.loaded();
  });

  afterAll(() => downloads.remove());

  beforeEach(() => screen.open());

  it('lists the uses newest first with the spec columns, no selection, View and Delete', async () => {
    await page.getByRole('heading', { name: 'Usage history', level: 1 }).waitFor();
    expect(await screen.headers()).toEqual(COLUMNS);
    // Newest record first (the default sort, id descending).
    await until(() => screen.column('Employee email')).toEqual([CINGIZ, GULNAR, ILKIN, CINGIZ, GULNAR, ILKIN]);
    const row = screen.row(USES.ilkinWeekend.shown);
    expect((await row.locator('td').allInnerTexts()).slice(0, 7)).toEqual([ILKIN, 'Azərsun Holding', 'Bravo Market', 'Həftəsonu endirimi', 'Ərzaq', '01-03-2026 01:00', '15%']);
    expect(await row.getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')))).toEqual(['View', 'Delete']);
    expect(await page.getByRole('main').getByRole('checkbox').count()).toBe(0);
    expect(await screen.button('Create').count()).toBe(0);
    expect(await screen.total()).toBe('6 usage records');
    await expectAccessible(page, '/usagehistory at 1280');
    await checkFitsDesktop(screen, 'usage-history-1280', { statusColumn: false });
  });

  it('sorts by a column header', async () => {
    await screen.sortBy('Date').click();
    await until(() => screen.column('Date')).toEqual(['10-02-2026 14:00', '01-03-2026 01:00', '15-03-2026 12:00', '31-03-2026 23:30', '01-04-2026 00:30', '20-04-2026 14:00']);
    await screen.sortBy('Date').click();
    await until(() => screen.column('Date').then((column) => column[0])).toBe('20-04-2026 14:00');
  });

  it('filters by an asset, a partner and an employee picked from the server as you type', async () => {
    await screen.showFilter();
    await pick('Asset', 'bakc', 'Bakcell');
    await showsUses('gulnarAraz', 'gulnarWeekend');
    await page.getByRole('button', { name: 'Remove filter Asset: Bakcell' }).waitFor();
    await expectAccessible(page, '/usagehistory with the filter panel');
    await shot(page, 'usage-history-filter');
    // Emptying the picker chooses nothing again; Escape closes its list (which makes the page behind it inert).
    await screen.filterField('Asset').fill('');
    await screen.filterField('Asset').press('Escape');
    await showsUses(...(Object.keys(USES) as UseName[]));

    await pick('Partner', 'araz', 'Araz Market');
    await showsUses('gulnarAraz', 'ilkinAraz');
    await page.getByRole('button', { name: 'Remove filter Partner: Araz Market' }).click();
    await showsUses(...(Object.keys(USES) as UseName[]));

    // The employee picker lists employee/forAdmin's userName (the e-mail); `cingiz` finds it by e-mail.
    await screen.filterField('Employee').click();
    await screen.filterField('Employee').fill('cingiz');
    await until(() => page.getByRole('listbox').getByRole('option').allInnerTexts()).toEqual([CINGIZ]);
    await expectAccessible(page, '/usagehistory with the employee picker open');
    await page.getByRole('option', { name: CINGIZ }).click();
    await showsUses('cingizCoffee', 'cingizWeekend');
    expect(new URL(page.url()).searchParams.get('employeeId')).not.toBeNull();

    // A shared link names the picked employee in the picker and the chip.
    await page.reload();
    await screen.loaded();
    await page.getByRole('button', { name: `Remove filter Employee: ${CINGIZ}` }).waitFor();
    await showsUses('cingizCoffee', 'cingizWeekend');
    expect(await screen.filterField('Employee').inputValue()).toBe(CINGIZ);
  });

  it('shows whether the partner confirmed a use at its till, and where, and filters by it', async () => {
    await until(() => screen.row(USES.cingizCoffee.shown).locator('td').allInnerTexts().then((cells) => cells.slice(7, 9))).toEqual(['Yes', expect.stringContaining('Nizami küç. 10')]);
    expect((await screen.row(USES.ilkinWeekend.shown).locator('td').allInnerTexts()).slice(7, 8)).toEqual(['No']);
    await screen.showFilter();
    await screen.filterField('Verified').selectOption({ label: 'Yes' });
    await showsUses('cingizCoffee');
    await page.getByRole('button', { name: 'Remove filter Verified: Yes' }).waitFor();
    await screen.filterField('Verified').selectOption({ label: 'No' });
    await showsUses('ilkinWeekend', 'gulnarAraz', 'ilkinAraz', 'gulnarWeekend', 'cingizWeekend');
    await screen.filterField('Verified').selectOption({ label: 'All' });
    await showsUses(...(Object.keys(USES) as UseName[]));
  });

  it('filters by campaign name (həftəsonu typed as heftesonu) and by the browser days of a date range', async () => {
    await screen.showFilter();
    await screen.filterField('Campaign name').fill('heftesonu');
    await showsUses('ilkinWeekend', 'gulnarWeekend', 'cingizWeekend');
    await screen.filterField('Campaign name').fill('');

    await screen.filterField('Start date').fill('2026-03-01');
    await screen.filterField('End date').fill('2026-03-31');
    await showsUses('ilkinWeekend', 'gulnarAraz', 'cingizCoffee');
    await screen.filterField('Start date').fill('2026-04-01');
    await showsUses('ilkinWeekend', 'gulnarAraz', 'cingizCoffee');
    // A reversed range is said in the panel and not sent: the list keeps the last range.
    await screen.filterPanel.getByText('End date cannot be before Start date', { exact: true }).waitFor();
    expect(await screen.filterField('End date').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, '/usagehistory with a reversed range');
    await shot(page, 'usage-history-reversed-range');
    await screen.filterField('End date').fill('2026-04-30');
    await showsUses('ilkinAraz', 'cingizWeekend');
    expect(await screen.filterPanel.getByText('End date cannot be before Start date').count()).toBe(0);
  });

  it('shows every field in Usage details and cancels the use there, the list refreshed', async () => {
    await screen.tool(USES.ilkinWeekend.shown, 'View').click();
    const drawer = await openedDialog(page, 'Usage details');
    await drawer.getByText('4 of 5', { exact: true }).waitFor();
    const pairs = await drawer.locator('dl > div').evaluateAll((items) => items.map((item) => [item.querySelector('dt')?.textContent, item.querySelector('dd')?.textContent]));
    expect(pairs.slice(0, 8)).toEqual([
      ['Employee email', ILKIN],
      ['Asset name', 'Azərsun Holding'],
      ['Partner name', 'Bravo Market'],
      ['Campaign name', 'Həftəsonu endirimi'],
      ['Merchant category', 'Ərzaq'],
      ['Date', '01-03-2026 01:00'],
      ['Discount percent', '15%'],
      ['Rating', '4 of 5'],
    ]);
    const status = drawer.getByRole('combobox', { name: /^Usage status: ilkin@azersun.test, Həftəsonu endirimi/ });
    expect(await status.inputValue()).toBe('0');
    await expectAccessible(page, 'Usage details', drawer);
    await shot(page, 'usage-history-drawer');
    await status.selectOption({ label: 'Cancelled' });
    await until(() => stored(ids.ilkinWeekend).then((row) => row.status)).toBe(1);
    await page.getByText(/^Usage record of ilkin@azersun.test, Həftəsonu endirimi, 01-03-2026 01:00 set to Cancelled$/).waitFor();
    await until(() => status.inputValue()).toBe('1');
    await drawer.getByRole('button', { name: 'Close' }).click();
    // Opened again, the record reads as stored.
    await screen.tool(USES.ilkinWeekend.shown, 'View').click();
    const again = await openedDialog(page, 'Usage details');
    await until(() => again.getByRole('combobox', { name: /^Usage status/ }).inputValue()).toBe('1');
    await again.getByRole('combobox', { name: /^Usage status/ }).selectOption({ label: 'Confirmed' });
    await until(() => stored(ids.ilkinWeekend).then((row) => row.status)).toBe(0);
    await again.getByRole('button', { name: 'Close' }).click();
  });

  it('lets an Admin delete a use after the question', async () => {
    await screen.tool(USES.cingizWeekend.shown, 'Delete').click();
    const question = await openedDialog(page, 'Delete');
    await question.getByText(`Delete usage record ${CINGIZ}, Həftəsonu endirimi, 20-04-2026 14:00?`, { exact: true }).waitFor();
    await question.getByText('Are you sure to delete?').waitFor();
    await expectAccessible(page, 'Delete usage record', question);
    await question.getByRole('button', { name: 'No' }).click();
    await question.waitFor({ state: 'detached' });
    expect(await screen.row(USES.cingizWeekend.shown).count()).toBe(1);

    await screen.tool(USES.cingizWeekend.shown, 'Delete').click();
    await (await openedDialog(page, 'Delete')).getByRole('button', { name: 'Yes' }).click();
    await until(() => screen.row(USES.cingizWeekend.shown).count()).toBe(0);
    await until(() => screen.total()).toBe('5 usage records');
    const gone = await stored(ids.cingizWeekend).then(
      () => 200,
      (error: unknown) => (error instanceof ApiError ? error.status : 0),
    );
    expect(gone).toBe(404);
  });

  it('exports UsageHistory.xlsx for a date range, showing the download progress, the rows of that range only', async () => {
    await screen.button('Export').click();
    const form = await screen.form('Export Excel');
    const download = form.root.getByRole('button', { name: 'Download' });
    await form.field('Start date').fill('2026-03-31');
    await form.field('End date').fill('2026-03-01');
    await download.click();
    await form.message('End date cannot be before the start date').waitFor();
    await expectAccessible(page, 'Export Excel with a reversed range', form.root);
    await shot(page, 'usage-history-export-validation');

    await form.field('Start date').fill('2026-03-01');
    await form.field('End date').fill('2026-03-31');
    const { file: exported, url, contentLength } = await downloads.exportHeld(page, '**/api/usageHistory/export/admin**', download, form.root, async (progress) => {
      expect(await progress.getAttribute('aria-label')).toBe('Downloading… the server is preparing the file');
      await expectAccessible(page, 'Export Excel downloading', form.root);
      await shot(page, 'usage-history-export-progress');
    });
    expect(url.searchParams.get('startDate')).toBe('2026-03-01T00:00:00+04:00');
    expect(url.searchParams.get('endDate')).toBe('2026-04-01T00:00:00+04:00');
    expect(contentLength, 'the export names its length, so the bar can show a percentage').toBeGreaterThan(0);
    await form.root.waitFor({ state: 'detached' });

    expect(exported.fileName).toBe('UsageHistory.xlsx');
    expect(exported.headerBold).toBe(true);
    expect(exported.header).toEqual(['Employee email', 'Asset name', 'Partner name', 'Campaign name', 'Merchant category', 'Date', 'Discount percent', 'Status', 'Verified', 'Branch']);
    expect(exported.data.map((row) => [row[0], row[3]]).sort()).toEqual(
      [
        [CINGIZ, 'Səhər qəhvəsi'],
        [GULNAR, 'Araz kartı'],
        [ILKIN, 'Həftəsonu endirimi'],
      ].sort(),
    );
    expect(exported.data.find((row) => row[0] === GULNAR)).toEqual(expect.arrayContaining(['Bakcell', 'Araz Market', 'Ərzaq', '10', 'Confirmed']));
  });

  it("exports the list's filter too: one partner's uses in the range", async () => {
    await screen.showFilter();
    await pick('Partner', 'araz', 'Araz Market');
    await showsUses('gulnarAraz', 'ilkinAraz');
    await screen.button('Export').click();
    const form = await screen.form('Export Excel');
    await form.field('Start date').fill('2026-03-01');
    await form.field('End date').fill('2026-03-31');
    const exported = await downloads.export(page, form.root.getByRole('button', { name: 'Download' }));
    expect(exported.data.map((row) => row[0])).toEqual([GULNAR]);
  });

  it('shows Call Center the uses and their details, with no status choice and no Delete; the server refuses both', async () => {
    const operator = await suite.signedIn(suite.accounts.operator, USAGE.path);
    const theirs = new ListScreen(operator, USAGE);
    await theirs.loaded();
    await until(() => theirs.column('Employee email')).toContain(ILKIN);
    expect(await operator.getByRole('main').getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    expect(await theirs.row(USES.ilkinWeekend.shown).getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')))).toEqual(['View']);
    await theirs.tool(USES.ilkinWeekend.shown, 'View').click();
    const drawer = await openedDialog(operator, 'Usage details');
    await drawer.getByText('Confirmed', { exact: true }).waitFor();
    expect(await drawer.getByRole('combobox').count()).toBe(0);
    await expectAccessible(operator, 'Usage details for Call Center', drawer);
    await drawer.getByRole('button', { name: 'Close' }).click();
    // Call Center may export (a read).
    await theirs.button('Export').click();
    const form = await theirs.form('Export Excel');
    await form.field('Start date').fill('2026-01-01');
    await form.field('End date').fill('2026-12-31');
    const exported = await downloads.export(operator, form.root.getByRole('button', { name: 'Download' }));
    expect(exported.data.length).toBe(5);
    const refused = await operator.evaluate(async (id) => {
      const token = JSON.parse(localStorage.getItem('persist:perkdesk-auth') ?? '{}').authToken as string;
      const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
      const remove = await fetch('/api/usageHistory', { method: 'DELETE', headers, body: JSON.stringify({ id: [id] }) });
      const status = await fetch('/api/usageHistory/updateStatus', { method: 'PUT', headers, body: JSON.stringify({ id, status: 1 }) });
      return [remove.status, status.status];
    }, ids.gulnarAraz);
    expect(refused).toEqual([403, 403]);
    await operator.context().close();
  });

  it('lets a User set the status from the drawer but offers no Delete', async () => {
    const clerk = await suite.signedIn(suite.accounts.clerk, USAGE.path);
    const theirs = new ListScreen(clerk, USAGE);
    await theirs.loaded();
    await until(() => theirs.column('Employee email')).toContain(GULNAR);
    expect(await clerk.getByRole('main').getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    await theirs.tool(USES.gulnarAraz.shown, 'View').click();
    const drawer = await openedDialog(clerk, 'Usage details');
    await drawer.getByRole('combobox', { name: /^Usage status/ }).selectOption({ label: 'Cancelled' });
    await until(() => stored(ids.gulnarAraz).then((row) => row.status)).toBe(1);
    await clerk.context().close();
  });

  it('works at 390 px: the list, the filter panel and the drawer', async () => {
    await page.setViewportSize(PHONE);
    try {
      await screen.open();
      await until(() => screen.column('Employee email')).toContain(GULNAR);
      expect(await overflowsHorizontally(page)).toBe(false);
      await expectAccessible(page, '/usagehistory at 390');
      await shot(page, 'usage-history-phone');
      await screen.showFilter();
      await pick('Partner', 'bravo', 'Bravo Market');
      await until(() => screen.column('Employee email')).toEqual([GULNAR, CINGIZ, ILKIN]);
      expect(await overflowsHorizontally(page)).toBe(false);
      await expectAccessible(page, '/usagehistory filter at 390');
      await shot(page, 'usage-history-filter-phone');
      await screen.tool(USES.ilkinWeekend.shown, 'View').click();
      const drawer = await openedDialog(page, 'Usage details');
      await drawer.getByText('4 of 5', { exact: true }).waitFor();
      expect(await overflowsHorizontally(page)).toBe(false);
      await expectAccessible(page, 'Usage details at 390', drawer);
      await shot(page, 'usage-history-drawer-phone');
      await drawer.getByRole('button', { name: 'Close' }).click();
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });
});
