import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/axe';
import { DESKTOP, PHONE, shot } from '../support/browser';
import { createCampaign, createCategory } from '../support/campaignsApi';
import { chartFigure, fallbackTable, tableRows } from '../support/charts';
import { pngBytes } from '../support/images';
import { ListScreen, type ScreenSpec } from '../support/listScreen';
import { insertComplaints, insertMerchantRequests, insertUsage } from '../support/peopleDb';
import { SECTIONS } from '../support/sections';
import { runSql } from '../support/sql';
import { useSuite } from '../support/suite';
import { openedDialog, overflowsHorizontally, until } from '../support/ui';

/**
 * An outside walk of the panel in Debian's Chromium (which has no Azerbaijani locale data), each
 * finding checked as a person meets it: complaint reasons in every language, Azerbaijani months
 * and numbers, whole e-mails at 1280 px, translated placeholders and messages, readable Activity
 * and History, the key of a reset authenticator, grouped counts, and kinds of record in sentences.
 */
const suite = useSuite();

const EMPLOYEES: ScreenSpec = { path: '/employeelist', title: 'Employee list' };
const COMPLAINTS: ScreenSpec = { path: '/complaints', title: 'Complaints' };
const USERS: ScreenSpec = { path: '/users', title: 'Users' };
const TRASH: ScreenSpec = { path: '/trash', title: 'Trash' };
const ACTIVITY: ScreenSpec = { path: '/activity', title: 'Activity' };
const MERCHANTS: ScreenSpec = { path: '/merchants', title: 'Merchants' };

/** Azerbaijani month names, as an Azerbaijani reader expects them whatever the browser's locale data. */
const AZ_MONTHS = ['Yanvar', 'Fevral', 'Mart', 'Aprel', 'May', 'İyun', 'İyul', 'Avqust', 'Sentyabr', 'Oktyabr', 'Noyabr', 'Dekabr'];
const AZ_MONTHS_SHORT = ['Yan', 'Fev', 'Mar', 'Apr', 'May', 'İyn', 'İyl', 'Avq', 'Sen', 'Okt', 'Noy', 'Dek'];
const EMPLOYEE_COUNT = 3000;
const MERCHANT = { firstName: 'Elvin', lastName: 'Quliyev', email: 'elvin.quliyev.satici@dadlimarket-filial.test' };
/** How the trash names the merchant (its name and e-mail). */
const MERCHANT_LABEL = `${MERCHANT.firstName} ${MERCHANT.lastName} <${MERCHANT.email}>`;

async function useLanguage(page: Page, code: string): Promise<void> {
  await page.evaluate((language) => localStorage.setItem('perkdesk-language', language), code);
}

/** The e-mails in the visible tables that are not shown whole (cut with an ellipsis, or clipped by their cell). */
function cutEmails(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const cut: string[] = [];
    for (const cell of document.querySelectorAll<HTMLElement>('main table td')) {
      if (!cell.checkVisibility() || !/\S+@\S+\.\S+/.test(cell.textContent ?? '')) continue;
      const boxes = [cell, ...cell.querySelectorAll<HTMLElement>('*')];
      if (boxes.some((box) => box.scrollWidth > box.clientWidth + 1 && getComputedStyle(box).overflowX !== 'visible')) cut.push(cell.textContent ?? '');
    }
    return cut;
  });
}

async function history(drawer: Locator): Promise<Locator> {
  await drawer.getByRole('tab', { name: /History|Tarixçə|Verlauf/ }).click();
  const list = drawer.getByRole('list').first();
  await list.waitFor();
  return list;
}

describe('the walk findings', () => {
  let page: Page;
  let merchantId = 0;

  beforeAll(async () => {
    const api = await suite.api();
    const image = pngBytes(32, [30, 90, 160], [255, 255, 255]);
    const asset = await api.createAsset(
      { name: 'Qafqaz Bank', contactPerson: 'Kamran Əliyev', phoneNumber: '994551234567', email: 'kadrlar.sobesi@qafqazbank-filial.test', barcodePrefix: 'QB1' },
      image,
    );
    await api.createHrAccount({ assetId: asset.id, firstName: 'Nigar', lastName: 'Həsənova', email: 'nigar.hasanova.kadrlar@qafqazbank-filial.test', phone: '994701234567', password: 'Welcome2026' });
    await api.createUser({ firstName: 'Tural', lastName: 'Həsənli', email: 'tural.hasanli.operator@perkdesk-backoffice.test', phone: '994501112233' });
    const partner = await api.createPartner({
      name: 'Dadlı Market',
      contactPersonFirstName: 'Elvin',
      contactPersonLastName: 'Quliyev',
      phoneNumber: '994501112233',
      email: 'emekdaslarla.elaqe@dadlimarket-filial.test',
      cities: [{ cityId: 1, address: 'Nizami küç. 5', latitude: 40.41, longitude: 49.87 }],
    });
    merchantId = (
      await api.call<{ id: number }>('POST', 'partner/merchant', {
        ...MERCHANT,
        phoneNumber: '994551112233',
        partnerId: partner.id,
        partnerCityId: partner.cities[0].id,
      })
    ).id;
    const category = await createCategory(api, { nameAz: 'Ərzaq', nameEn: 'Groceries', nameRu: 'Продукты' });
    const campaign = await createCampaign(
      api,
      { partnerId: partner.id, campaignCategoryId: category.id, nameAz: 'Payız endirimi', nameEn: 'Autumn sale', nameRu: 'Осенняя распродажа', discountPercent: 15, assets: [asset.id] },
      image,
      image,
    );
    // Three thousand employees of the bank, as the app signs them up (one statement).
    runSql(
      suite.server.dbPath,
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${EMPLOYEE_COUNT})
       INSERT INTO employees (asset_id, first_name, last_name, email, phone, is_active)
       SELECT ${asset.id}, 'İşçi', 'Nömrə ' || i, 'isci.nomre' || i || '@qafqazbank-filial.test', '99450' || (1000000 + i), 1 FROM n;`,
    );
    // Ratings 4, 4 and 5 on the market's campaign: 4.33 in English, 4,33 in Azerbaijani.
    const employees = runSql(suite.server.dbPath, 'SELECT id FROM employees ORDER BY id LIMIT 3;').trim().split('\n').map(Number);
    insertUsage(suite.server.dbPath, employees.map((employeeId, index) => ({ employeeId, campaignId: campaign.id, at: new Date().toISOString(), rating: index === 2 ? 5 : 4 })));
    insertComplaints(suite.server.dbPath, [
      { fullName: 'Səbinə Hüseynova', email: 'sabina.huseynova.musteri@qafqazbank-filial.test', phone: '994552001122', reasonId: 3, description: 'Kassir kobud danışdı' },
      { fullName: 'Orxan Quliyev', email: 'orxan.quliyev.musteri@qafqazbank-filial.test', phone: '994703334455', reasonId: 4, description: 'Tətbiq açılmır' },
    ]);
    insertMerchantRequests(suite.server.dbPath, [
      { partnerName: 'Bulvar Kafe', fullName: 'Rəşad Məmmədov', email: 'resad.memmedov.muraciet@bulvarkafe-filial.test', phone: '994501234567', cityIds: [1] },
    ]);
    page = await suite.signedIn(suite.admin, '/dashboard');
  });

  afterAll(async () => {
    await page?.context().close();
  });

  it('(2) the dashboard in Azerbaijani: month names and numbers from the panel, not the browser’s missing data', async () => {
    await useLanguage(page, 'az');
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'İdarə paneli', level: 1 }).waitFor();
    const figures = page.locator('main dl > div');
    // The uses were made this month: none last month.
    await until(() => figures.locator('dd').allInnerTexts()).toEqual(['3.000', '0', '3']);
    // The previous UTC month and this UTC year, as the server counts them.
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    expect(await figures.nth(1).locator('dt').innerText()).toContain(`(${AZ_MONTHS[lastMonth.getUTCMonth()]} ${lastMonth.getUTCFullYear()})`);
    const line = chartFigure(page, `${now.getUTCFullYear()}-ci ildə aylar üzrə istifadə tarixçəsi`);
    const months = (await tableRows(fallbackTable(line))).map((row) => row[0]);
    expect(months).toEqual(AZ_MONTHS_SHORT);
    // Top 10 Merchant: the partner's average rating with a decimal comma.
    await until(() => page.locator('main table').filter({ hasText: 'Dadlı Market' }).first().innerText()).toContain('4,33');
    expect(await page.locator('main').innerText()).not.toMatch(/\bM\d\d\b|3,000|4\.33/);
    await shot(page, 'walk-findings-dashboard-az');
  });

  it('(9) the count under a list’s title and the pagination group thousands as the dashboard does', async () => {
    await page.goto(EMPLOYEES.path);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await until(() => page.getByRole('status').filter({ hasText: 'əməkdaş' }).first().innerText()).toBe('3.000 əməkdaş');
    await until(() => page.getByRole('navigation', { name: 'Səhifələr' }).innerText()).toContain('1–10 / 3.000');
    await useLanguage(page, 'en');
    await page.reload();
    await until(() => page.getByRole('status').filter({ hasText: 'employees' }).first().innerText()).toBe('3,000 employees');
  });

  it('(1) complaint reasons are named in the interface language: table, drawer and the Reason filter', async () => {
    for (const { code, reason, other, words } of [
      { code: 'az', reason: 'İşçilərin davranışı', other: 'Tətbiqdə problem', words: { filter: 'Filtri göstər', label: 'Səbəb', details: 'Şikayət məlumatları' } },
      { code: 'de', reason: 'Verhalten des Personals', other: 'Problem mit der App', words: { filter: 'Filter anzeigen', label: 'Grund', details: 'Beschwerdedetails' } },
    ]) {
      await useLanguage(page, code);
      await page.goto(COMPLAINTS.path);
      const rows = page.locator('main table tbody tr');
      await until(() => rows.filter({ hasText: 'Səbinə' }).innerText()).toContain(reason);
      expect(await rows.filter({ hasText: 'Orxan' }).innerText()).toContain(other);
      expect(await page.locator('main table').innerText()).not.toMatch(/Staff behaviour|App problem/);
      await page.getByRole('button', { name: new RegExp(`^${words.filter}`) }).click();
      const filter = page.getByRole('search').getByLabel(words.label, { exact: true });
      const options = await filter.locator('option').allInnerTexts();
      expect(options).toContain(reason);
      expect(options).toContain(other);
      expect(options.filter((option) => /Discount|Staff|App problem|Other/.test(option))).toEqual([]);
      await filter.selectOption({ label: other });
      await until(() => rows.count()).toBe(1);
      expect(await rows.first().innerText()).toContain('Orxan');
      if (code === 'az') {
        await expectAccessible(page, 'the Reason filter in Azerbaijani');
        await shot(page, 'walk-findings-complaints-az');
      }
      await rows.first().getByRole('button').first().click();
      const drawer = await openedDialog(page, words.details);
      await drawer.getByText(other, { exact: true }).waitFor();
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached' });
    }
  });

  it('(4) "Choose an asset" and the date placeholders speak the interface language', async () => {
    await useLanguage(page, 'az');
    await page.goto(EMPLOYEES.path);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.getByRole('group', { name: 'Cədvəl əməliyyatları' }).getByRole('button', { name: 'İxrac et' }).click();
    const exportDialog = await openedDialog(page, 'Excel-ə ixrac');
    await exportDialog.getByRole('button', { name: 'Yüklə' }).click();
    await exportDialog.getByText('Təşkilat seçin', { exact: true }).waitFor();
    expect(await exportDialog.innerText()).not.toContain('Choose an asset');
    await page.keyboard.press('Escape');

    await page.goto('/usagehistory');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.getByRole('button', { name: /Filtri göstər/ }).click();
    const placeholders = await page.locator('main input[placeholder]').evaluateAll((inputs) => inputs.map((input) => input.getAttribute('placeholder')));
    expect(placeholders).toContain('gg-aa-iiii');
    expect(placeholders).not.toContain('dd-mm-yyyy');
  });

  it('(6) an Admin’s reset shows the new key, grouped for reading aloud, with a copy button', async () => {
    await useLanguage(page, 'en');
    const users = new ListScreen(page, USERS);
    await users.open('?email=tural');
    await users.tool('tural.hasanli.operator@perkdesk-backoffice.test', 'Reset authenticator').click();
    const dialog = await openedDialog(page, 'Reset authenticator');
    await dialog.getByRole('button', { name: 'Reset authenticator' }).click();
    await dialog.getByRole('img', { name: 'QR code: Tural Həsənli' }).waitFor();
    const key = dialog.getByRole('group', { name: 'Key' });
    const shown = (await key.locator('code').innerText()).trim();
    expect(shown).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
    const stored = runSql(suite.server.dbPath, "SELECT totp_secret FROM users WHERE email = 'tural.hasanli.operator@perkdesk-backoffice.test';").trim();
    expect(shown.replaceAll(' ', '')).toBe(stored);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.baseUrl });
    await key.getByRole('button', { name: 'Copy' }).click();
    await key.getByRole('button', { name: 'Copied' }).waitFor();
    // The app gets the key as it takes it: without the spaces that are only there for reading aloud.
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(stored);
    await expectAccessible(page, 'the reset dialog with its key', dialog);
    await shot(page, 'walk-findings-reset-key-1280');
    await page.setViewportSize(PHONE);
    expect(await overflowsHorizontally(page)).toBe(false);
    await shot(page, 'walk-findings-reset-key-390');
    await page.setViewportSize(DESKTOP);
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('(10) the kind of record is lower-case inside a sentence, capitalised where it opens one, and German keeps its nouns', async () => {
    await useLanguage(page, 'en');
    const api = await suite.api();
    await api.call('DELETE', 'partner/merchant', { id: [merchantId] });
    const trash = new ListScreen(page, TRASH);
    await trash.open();
    await trash.tool('Elvin Quliyev', 'Restore').click();
    let confirm = await openedDialog(page, 'Restore');
    await confirm.getByText(`Restore merchant ${MERCHANT_LABEL}?`, { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });

    await useLanguage(page, 'de');
    await page.reload();
    await page.getByRole('row').filter({ hasText: 'Elvin Quliyev' }).getByRole('button', { name: 'Wiederherstellen', exact: true }).click();
    confirm = await openedDialog(page, 'Wiederherstellen');
    await confirm.getByText(`Händler ${MERCHANT_LABEL} wiederherstellen?`, { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });

    await useLanguage(page, 'az');
    await page.reload();
    await page.getByRole('row').filter({ hasText: 'Elvin Quliyev' }).getByRole('button', { name: 'Bərpa et', exact: true }).click();
    confirm = await openedDialog(page, 'Bərpa et');
    // Azerbaijani opens the sentence with the kind: capitalised there.
    await confirm.getByText(`Satıcı ${MERCHANT_LABEL} bərpa edilsin?`, { exact: true }).waitFor();
    await confirm.getByRole('button', { name: 'Bəli' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByText(`Satıcı ${MERCHANT_LABEL} bərpa edildi`).waitFor();
  });

  it('(5) Activity and History name fields by their labels, show the panel’s dates and the record’s name', async () => {
    await useLanguage(page, 'en');
    // A complaint marked read, and the merchant deleted and restored (above): each on record.
    const complaints = new ListScreen(page, COMPLAINTS);
    await complaints.open();
    await complaints.row('Səbinə').getByRole('switch').click();
    await until(() => complaints.row('Səbinə').innerText()).toContain('Read');

    const activity = new ListScreen(page, ACTIVITY);
    await activity.open('?resource=complaint');
    await until(() => activity.column('Record')).toContain('Complaint Səbinə Hüseynova');
    expect((await activity.column('Record')).filter((record) => /#\d+/.test(record))).toEqual([]);
    expect(await activity.column('Changes')).toContain('Read');
    expect((await activity.table.innerText())).not.toContain('isRead');

    await activity.open('?resource=partner%2Fmerchant');
    await until(() => activity.column('Action')).toEqual(expect.arrayContaining(['Deleted', 'Restored']));
    expect(new Set(await activity.column('Record'))).toEqual(new Set([`Merchant ${MERCHANT.firstName} ${MERCHANT.lastName}`]));
    await activity.row('Restored').getByRole('button', { name: 'View' }).click();
    const entry = await openedDialog(page, 'Activity entry');
    const changes = entry.getByRole('region', { name: 'Changes' });
    const deletedOn = changes.getByRole('row', { name: /Deleted on/ });
    await deletedOn.waitFor();
    expect(await deletedOn.innerText()).toMatch(/Deleted on\s+\d{2}-\d{2}-\d{4} \d{2}:\d{2}\s+\(empty\)/);
    expect(await changes.innerText()).not.toMatch(/\d{4}-\d{2}-\d{2}T|deletedAt/);
    await expectAccessible(page, 'an activity entry with its labels and dates', entry);
    await shot(page, 'walk-findings-activity-entry');
    await page.keyboard.press('Escape');
    await entry.waitFor({ state: 'detached' });

    const merchants = new ListScreen(page, MERCHANTS);
    await merchants.open();
    await merchants.tool(MERCHANT.email, 'View').click();
    const drawer = await openedDialog(page, 'Merchants details');
    const entries = await history(drawer);
    const restored = entries.getByRole('listitem').filter({ hasText: 'Restored by' });
    await restored.getByRole('row', { name: /Deleted on/ }).waitFor();
    expect(await restored.innerText()).toMatch(/Deleted on\s+\d{2}-\d{2}-\d{4} \d{2}:\d{2}/);
    expect(await entries.innerText()).not.toMatch(/\d{4}-\d{2}-\d{2}T|deletedAt/);
    await shot(page, 'walk-findings-history');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
  });

  // One test a width, so each has its own time limit on a loaded machine.
  it.each([DESKTOP.width, 1024, PHONE.width])('(3) every list fits %i px, and at 1280 px every e-mail on it shows whole', async (width) => {
    await useLanguage(page, 'en');
    const lists = SECTIONS.map((section) => section.path).filter((path) => path !== '/dashboard' && path !== '/reports');
    const cut: Record<string, string[]> = {};
    const scrolling: string[] = [];
    await page.setViewportSize({ width, height: width === PHONE.width ? PHONE.height : DESKTOP.height });
    for (const path of lists) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
      if (width === DESKTOP.width) {
        const emails = await cutEmails(page);
        if (emails.length) cut[path] = emails;
        if (path === '/merchants' || path === '/users') await shot(page, `walk-findings-emails-${path.slice(1)}-1280`);
      }
      if (await overflowsHorizontally(page)) scrolling.push(`${path} at ${width}`);
    }
    expect(cut).toEqual({});
    expect(scrolling).toEqual([]);
    await page.setViewportSize(DESKTOP);
  });

  it("(3) in German, whose longer headers leave Merchants' two e-mail columns less room, every e-mail still shows whole at 1280 px", async () => {
    await page.setViewportSize(DESKTOP);
    await useLanguage(page, 'de');
    await page.goto('/merchants');
    await page.getByRole('row').filter({ hasText: MERCHANT.firstName }).waitFor();
    expect(await cutEmails(page)).toEqual([]);
    expect(await page.locator('main table').evaluate((table) => table.parentElement!.scrollWidth <= table.parentElement!.clientWidth + 1)).toBe(true);
    await shot(page, 'walk-findings-emails-merchants-de-1280');
    await useLanguage(page, 'en');
  });
});
