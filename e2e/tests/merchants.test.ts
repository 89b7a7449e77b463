import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, type PartnerCityRow } from '../support/api';
import { expectAccessible } from '../support/axe';
import { DESKTOP, PHONE, shot, TABLET } from '../support/browser';
import { DownloadFolder } from '../support/exports';
import { checkFitsDesktop, ListScreen, type ScreenSpec } from '../support/listScreen';
import { useSuite } from '../support/suite';
import { openedDialog, overflowsHorizontally, reachable, until } from '../support/ui';
import type { Schema } from '../support/contract';
import { runSql } from '../support/sql';

const suite = useSuite();
const MERCHANTS: ScreenSpec = { path: '/merchants', title: 'Merchants' };
// The seeded cities (migrations), by id; lists read in Az name them Bakı, Gəncə, Sumqayıt.
const CITY = { Baku: 1, Ganja: 2, Sumgait: 3 } as const;

type MerchantRow = Schema<'MerchantRow'>;

/** What the filter test marks in the page: when each key reached the field, when the page asked
 * for the merchants (and for which name), and the page's own `fetch`, put back after. */
interface PageMarks {
  typed: number[];
  asked: { at: number; name: string | null }[];
  send: typeof fetch;
}

const MESSAGES = {
  firstName: 'First name is required',
  lastName: 'Last name is required',
  email: 'Email is required',
  phone: 'Phone is required',
  partner: 'Partner Id is required',
  city: 'Partner City Id is required',
  foreignCity: 'This city is not a branch of the chosen partner.',
  partnerFixed: 'The partner of a merchant cannot be changed.',
};

describe('Merchants: list, Merchant filter modal, details, partner→branch forms, export, bulk delete', () => {
  let page: Page;
  let screen: ListScreen;
  const downloads = new DownloadFolder();
  const partner = { bulvar: 0, qala: 0 };
  const branch = { bulvarBaku: 0, bulvarGanja: 0, qalaSumgait: 0 };
  const merchant = { resad: 0, gulnar: 0, orxan: 0 };

  const stored = async (id: number) => (await suite.api()).call<MerchantRow>('GET', `partner/merchant/${id}`).catch(() => undefined);
  const merchants = async (filter: Record<string, string> = {}) => (await (await suite.api()).list<MerchantRow>('partner/merchant/filter', filter)).data;
  const branches = async (partnerId: number) => (await (await suite.api()).call<{ data: PartnerCityRow[] }>('GET', `partner/cities/${partnerId}`)).data;
  const cityOptions = (select: ReturnType<Page['getByLabel']>) => select.locator('option').allInnerTexts();
  /** The First name column while the filter modal keeps the page behind it inert (hidden from the accessibility tree). */
  const namesBehindModal = () =>
    page.getByRole('table', { name: 'Merchants', exact: true, includeHidden: true }).evaluate((table) => {
      const index = [...table.querySelectorAll('thead th')].findIndex((th) => th.textContent?.trim() === 'First name');
      return [...table.querySelectorAll('tbody tr')].filter((tr) => tr.children.length > index + 1).map((tr) => tr.children[index].textContent?.trim() ?? '');
    });

  beforeAll(async () => {
    const api = await suite.api();
    const bulvar = await api.createPartner({
      name: 'Bulvar Kafe',
      contactPersonFirstName: 'Emin',
      contactPersonLastName: 'Sadıqov',
      phoneNumber: '994707631141',
      email: 'info@bulvarkafe.test',
      cities: [
        { cityId: CITY.Baku, address: 'Nizami küç. 5', latitude: 40.3777, longitude: 49.892 },
        { cityId: CITY.Ganja, address: 'Atatürk pr. 3', latitude: 40.6828, longitude: 46.3606 },
      ],
    });
    const qala = await api.createPartner({
      name: 'Qala Kafe',
      contactPersonFirstName: 'Leyla',
      contactPersonLastName: 'Həsənova',
      phoneNumber: '994552001122',
      email: 'info@qalakafe.test',
      cities: [{ cityId: CITY.Sumgait, address: 'Sülh küç. 12', latitude: 40.5897, longitude: 49.6686 }],
    });
    partner.bulvar = bulvar.id;
    partner.qala = qala.id;
    const [baku, ganja] = await branches(bulvar.id);
    branch.bulvarBaku = baku.id;
    branch.bulvarGanja = ganja.id;
    branch.qalaSumgait = (await branches(qala.id))[0].id;
    const create = (firstName: string, lastName: string, email: string, phoneNumber: string, partnerId: number, partnerCityId: number) =>
      api.call<MerchantRow>('POST', 'partner/merchant', { firstName, lastName, email, phoneNumber, partnerId, partnerCityId }).then((row) => row.id);
    merchant.resad = await create('Rəşad', 'Əliyev', 'resad.aliyev@bulvarkafe.test', '994501234567', bulvar.id, branch.bulvarBaku);
    merchant.gulnar = await create('Gülnar', 'Şahinova', 'gulnar@bulvarkafe.test', '994702223344', bulvar.id, branch.bulvarGanja);
    merchant.orxan = await create('Orxan', 'Quliyev', 'orxan@qalakafe.test', '994553334455', qala.id, branch.qalaSumgait);
    page = await suite.signedIn(suite.admin, MERCHANTS.path);
    screen = new ListScreen(page, MERCHANTS);
    await screen.loaded();
  });

  afterAll(() => downloads.remove());

  beforeEach(() => screen.open());

  it('lists the merchants with the spec columns and row tools, and fits 1280 px', async () => {
    await page.getByRole('heading', { name: 'Merchants', level: 1 }).waitFor();
    expect(await screen.headers()).toEqual(['', 'First name', 'Last name', 'Email', 'Phone number', 'Partner name', 'User name', 'Partner city', 'Actions']);
    await until(() => screen.column('First name')).toEqual(['Orxan', 'Gülnar', 'Rəşad']);
    const resad = screen.row('Rəşad');
    for (const text of ['Əliyev', 'resad.aliyev@bulvarkafe.test', '+994 50 123 45 67', 'Bulvar Kafe', 'Bakı, Nizami küç. 5']) await resad.getByText(text, { exact: true }).first().waitFor();
    expect(await resad.getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')))).toEqual(['View', 'Edit', 'Delete']);
    expect(await screen.button('Export').isVisible()).toBe(true);
    expect(await screen.button('Create').isVisible()).toBe(true);
    await expectAccessible(page, '/merchants at 1280');
    await checkFitsDesktop(screen, 'merchants-1280', { statusColumn: false });
    // User name is the e-mail again: every spec column shows from 1280 px, and it sorts.
    expect(await screen.table.getByRole('columnheader', { name: 'User name' }).isVisible()).toBe(true);
    await page.setViewportSize({ width: 1600, height: 900 });
    try {
      await screen.open();
      await screen.sortBy('User name').click();
      await screen.shows('User name', ['gulnar@bulvarkafe.test', 'orxan@qalakafe.test', 'resad.aliyev@bulvarkafe.test']);
      await shot(page, 'merchants-1600');
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it('sorts by the columns, each way', async () => {
    const ascending: Record<string, string[]> = {
      'First name': ['Gülnar', 'Orxan', 'Rəşad'],
      Email: ['gulnar@bulvarkafe.test', 'orxan@qalakafe.test', 'resad.aliyev@bulvarkafe.test'],
      'Phone number': ['+994 50 123 45 67', '+994 55 333 44 55', '+994 70 222 33 44'],
      'Partner name': ['Bulvar Kafe', 'Bulvar Kafe', 'Qala Kafe'],
      'Partner city': ['Bakı, Nizami küç. 5', 'Gəncə, Atatürk pr. 3', 'Sumqayıt, Sülh küç. 12'],
    };
    for (const [header, order] of Object.entries(ascending)) {
      await screen.sortBy(header).click();
      await screen.shows(header, order);
      await screen.sortBy(header).click();
      await screen.shows(header, [...order].reverse());
    }
  });

  it('filters in the Merchant filter modal, asking once 500 ms after the typing stops', async () => {
    await screen.filterSwitch().click();
    const modal = await openedDialog(page, 'Merchant filter');
    const name = modal.getByLabel('Name', { exact: true });
    // When each key reached the field and when the page asked for the list, both by the page's
    // clock on the page's own thread, so their order is the order they happened in: on a busy
    // machine a key can reach the field much later than the test sent it, and this process can
    // hear of a request much later than the page sent it (the clean-clone run of c29aeb6 heard
    // of one after the next key had reached the field).
    await name.evaluate((field) => {
      const marks: PageMarks = { typed: [], asked: [], send: window.fetch };
      (window as unknown as { marks: PageMarks }).marks = marks;
      field.addEventListener('input', () => marks.typed.push(Date.now()));
      window.fetch = (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input), window.location.href);
        if (url.pathname === '/api/partner/merchant/filter') marks.asked.push({ at: Date.now(), name: url.searchParams.get('name') });
        return marks.send.call(window, input, init);
      };
    });
    const marks = () => page.evaluate(() => {
      const { typed, asked } = (window as unknown as { marks: PageMarks }).marks;
      return { typed: [...typed], asked: [...asked] };
    });
    try {
      await name.pressSequentially('gulnar', { delay: 120 });
      await until(namesBehindModal).toEqual(['Gülnar']);
      await until(async () => (await marks()).asked.at(-1)?.name).toBe('gulnar');
      const { typed, asked } = await marks();
      expect(typed.length, 'a key each').toBe(6);
      // A debounce: every request comes 500 ms after the last key before it (a little slack for
      // timers), and no key came within 500 ms before a request (so keys typed in one run ask
      // once, for the whole word, however slowly the machine delivers them).
      for (const request of asked) {
        const before = typed.filter((at) => at <= request.at);
        expect(before.length, 'asked after a key').toBeGreaterThan(0);
        expect(request.at - before[before.length - 1], 'asked after the pause').toBeGreaterThanOrEqual(480);
      }
      const quickRun = typed.every((at, index) => index === 0 || at - typed[index - 1] < 480);
      if (quickRun) expect(asked.length, 'one request for the whole word').toBe(1);
    } finally {
      await page.evaluate(() => {
        window.fetch = (window as unknown as { marks: PageMarks }).marks.send;
      });
    }
    await expectAccessible(page, 'Merchant filter', modal);
    await shot(page, 'merchants-filter');

    await name.fill('');
    await modal.getByLabel('Email', { exact: true }).fill('bulvarkafe');
    await until(namesBehindModal).toEqual(['Gülnar', 'Rəşad']);
    await modal.getByLabel('Email', { exact: true }).fill('');
    // Typed as the table shows it: the spaces are dropped.
    await modal.getByLabel('Phone number', { exact: true }).fill('55 333 44');
    expect(await modal.getByLabel('Phone number', { exact: true }).inputValue()).toBe('5533344');
    await until(namesBehindModal).toEqual(['Orxan']);
    await modal.getByLabel('Phone number', { exact: true }).fill('');
    // The partner picker searches partner/filter as the user types.
    const partnerPicker = modal.getByRole('combobox', { name: 'Partner' });
    const choose = async (search: string, option: string) => {
      await partnerPicker.click();
      await partnerPicker.fill(search);
      await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
    };
    await choose('qala', 'Qala Kafe');
    await until(namesBehindModal).toEqual(['Orxan']);
    // Closed at once after a change: the change still applies.
    await choose('bulv', 'Bulvar Kafe');
    await modal.getByRole('button', { name: 'Close' }).click();
    await modal.waitFor({ state: 'detached' });
    await until(() => page.getByRole('list', { name: 'Applied filters' }).getByRole('button').allInnerTexts()).toEqual(['Partner: Bulvar Kafe']);
    await screen.shows('First name', ['Gülnar', 'Rəşad']);
    expect(await screen.filterSwitch().innerText()).toContain('1');
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await until(() => screen.column('First name')).toEqual(['Orxan', 'Gülnar', 'Rəşad']);
  });

  it('opens Merchants details', async () => {
    await screen.tool('Rəşad', 'View').click();
    const drawer = await openedDialog(page, 'Merchants details');
    for (const text of ['Rəşad', 'Əliyev', '+994 50 123 45 67', 'Bulvar Kafe', 'Bakı, Nizami küç. 5']) await drawer.getByText(text, { exact: true }).waitFor();
    expect(await drawer.getByText('resad.aliyev@bulvarkafe.test', { exact: true }).count()).toBe(2);
    await expectAccessible(page, 'Merchants details', drawer);
    await shot(page, 'merchant-details');
    await drawer.getByRole('button', { name: 'Close' }).click();
  });

  it('creates: the spec messages, then a partner whose branches load, another partner reloads them', async () => {
    await screen.button('Create').click();
    const form = await screen.form('Create Merchant');
    const city = form.field('Partner city');
    expect(await cityOptions(city)).toEqual(['Choose a city']);
    await form.save().click();
    for (const message of Object.values(MESSAGES).slice(0, 6)) await form.message(message).waitFor();
    await expectAccessible(page, 'Create Merchant with messages', form.root);
    await shot(page, 'merchant-create-validation');
    await form.field('Email').fill('ab');
    await form.message('Minimum 3 symbols').waitFor();
    await form.field('Email').fill(`${'a'.repeat(45)}@qala.test`);
    await form.message('Maximum 50 symbols').waitFor();
    await form.field('Email').fill('nigar@qala');
    await form.message('Wrong email format. E.g. name@example.com').waitFor();
    await form.field('Email').fill('nigar.quliyeva@qalakafe.test');
    await form.field('First name').fill('Nigar');
    await form.field('Last name').fill('Quliyeva');
    await form.phone('051', '1234');
    await form.save().click();
    await form.message('Phone number must consist of 7 digits').waitFor();
    await form.phone('051', '7654321');

    await form.pick(form.field('Partner'), 'Bulv', 'Bulvar Kafe');
    await until(() => cityOptions(city)).toEqual(['Choose a city', 'Bakı, Nizami küç. 5', 'Gəncə, Atatürk pr. 3']);
    await city.selectOption({ label: 'Gəncə, Atatürk pr. 3' });
    await form.pick(form.field('Partner'), 'Qala', 'Qala Kafe');
    await until(() => cityOptions(city)).toEqual(['Choose a city', 'Sumqayıt, Sülh küç. 12']);
    expect(await city.inputValue()).toBe('');
    await city.selectOption({ label: 'Sumqayıt, Sülh küç. 12' });
    await shot(page, 'merchant-create-filled');
    await form.saveAndClose();
    await until(() => merchants({ Email: 'nigar.quliyeva' }).then((rows) => rows.length)).toBe(1);
    const [created] = await merchants({ Email: 'nigar.quliyeva' });
    const detail = await stored(created.id);
    expect(detail && [detail.firstName, detail.lastName, detail.phone, detail.partnerId, detail.partnerCityId, detail.userName]).toEqual([
      'Nigar',
      'Quliyeva',
      '994517654321',
      partner.qala,
      branch.qalaSumgait,
      'nigar.quliyeva@qalakafe.test',
    ]);
    await screen.row('Nigar').getByText('Sumqayıt, Sülh küç. 12', { exact: true }).waitFor();
  });

  it('edits with the partner fixed, offers only its branches, and says so when a branch went meanwhile', async () => {
    await screen.tool('Rəşad', 'Edit').click();
    const form = await screen.form('Edit Merchant');
    const partnerInput = form.field('Partner');
    expect(await partnerInput.inputValue()).toBe('Bulvar Kafe');
    expect(await partnerInput.isDisabled()).toBe(true);
    await form.root.getByText(MESSAGES.partnerFixed).waitFor();
    const city = form.field('Partner city');
    await until(() => cityOptions(city)).toEqual(['Choose a city', 'Bakı, Nizami küç. 5', 'Gəncə, Atatürk pr. 3']);
    expect(await city.inputValue()).toBe(String(branch.bulvarBaku));
    expect(await form.field('First name').inputValue()).toBe('Rəşad');
    await expectAccessible(page, 'Edit Merchant', form.root);
    await shot(page, 'merchant-edit');
    await city.selectOption({ label: 'Gəncə, Atatürk pr. 3' });
    await form.field('Last name').fill('Əlizadə');
    await form.saveAndClose();
    await until(() => stored(merchant.resad).then((row) => row && [row.lastName, row.partnerCityId, row.partnerId])).toEqual(['Əlizadə', branch.bulvarGanja, partner.bulvar]);

    // Another operator removes the Bakı branch while this form is open; choosing it is refused, in the form.
    await screen.tool('Rəşad', 'Edit').click();
    const again = await screen.form('Edit Merchant');
    const againCity = again.field('Partner city');
    await until(() => cityOptions(againCity)).toContain('Bakı, Nizami küç. 5');
    runSql(suite.server.dbPath, `UPDATE partner_cities SET deleted_at = strftime('%Y-%m-%dT%H:%M:%SZ','now') WHERE id = ${branch.bulvarBaku};`);
    await againCity.selectOption({ label: 'Bakı, Nizami küç. 5' });
    await again.save().click();
    await again.message(MESSAGES.foreignCity).waitFor();
    expect(await againCity.getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'Edit Merchant refused', again.root);
    await shot(page, 'merchant-edit-refused');
    await again.cancel();
    expect((await stored(merchant.resad))?.partnerCityId).toBe(branch.bulvarGanja);
  });

  it('refuses through the API a branch of another partner and a changed partner, writing nothing', async () => {
    const api = await suite.api();
    const before = (await merchants()).length;
    const refusal = await api
      .call('POST', 'partner/merchant', { firstName: 'Kamran', lastName: 'Nəsirov', email: 'kamran@bulvarkafe.test', phoneNumber: '994501112233', partnerId: partner.bulvar, partnerCityId: branch.qalaSumgait })
      .catch((error: ApiError) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).status).toBeGreaterThanOrEqual(400);
    expect((refusal as ApiError).status).toBeLessThan(500);
    expect((refusal as ApiError).message).toContain(MESSAGES.foreignCity);
    const moved = await api
      .call('PUT', 'partner/merchant', { id: merchant.orxan, firstName: 'Orxan', lastName: 'Quliyev', email: 'orxan@qalakafe.test', phone: '994553334455', partnerId: partner.bulvar, partnerCityId: branch.bulvarGanja })
      .catch((error: ApiError) => error);
    expect(moved).toBeInstanceOf(ApiError);
    expect((moved as ApiError).status).toBeGreaterThanOrEqual(400);
    expect((moved as ApiError).status).toBeLessThan(500);
    expect((moved as ApiError).message).toContain(MESSAGES.partnerFixed);
    expect((await merchants()).length).toBe(before);
    expect((await stored(merchant.orxan))?.partnerId).toBe(partner.qala);
  });

  it('exports Merchant.xlsx with the list’s filter', async () => {
    const all = await downloads.export(page, screen.button('Export'));
    expect(all.fileName).toBe('Merchant.xlsx');
    expect(all.headerBold).toBe(true);
    expect(all.header).toEqual(['First name', 'Last name', 'Email', 'Phone', 'Partner name', 'User name', 'Partner city']);
    expect(all.data.map((row) => row[0]).sort()).toEqual(['Gülnar', 'Nigar', 'Orxan', 'Rəşad']);
    expect(all.data.find((row) => row[0] === 'Orxan')).toEqual(['Orxan', 'Quliyev', 'orxan@qalakafe.test', '+994 55 333 44 55', 'Qala Kafe', 'orxan@qalakafe.test', 'Sumqayıt, Sülh küç. 12']);
    await screen.open(`?partnerId=${partner.qala}`);
    await until(() => screen.column('First name')).toEqual(['Nigar', 'Orxan']);
    const filtered = await downloads.export(page, screen.button('Export'));
    expect(filtered.data.map((row) => row[0]).sort()).toEqual(['Nigar', 'Orxan']);
  });

  it('works at 1024 and 390 px: the list, the filter modal, the create form and the drawer', async () => {
    await page.setViewportSize(TABLET);
    try {
      await screen.open();
      expect(await overflowsHorizontally(page)).toBe(false);
      await screen.row('Orxan').getByRole('button', { name: 'Delete' }).waitFor();
      expect(await reachable(page, screen.row('Orxan').getByRole('button', { name: 'Delete' }))).toBe(true);
      await shot(page, 'merchants-1024');
    } finally {
      await page.setViewportSize(DESKTOP);
    }
    await page.setViewportSize(PHONE);
    try {
      await screen.open();
      expect(await overflowsHorizontally(page)).toBe(false);
      await expectAccessible(page, '/merchants at 390');
      await shot(page, 'merchants-phone');
      await screen.filterSwitch().click();
      const modal = await openedDialog(page, 'Merchant filter');
      expect(await overflowsHorizontally(page)).toBe(false);
      await shot(page, 'merchants-filter-phone');
      await modal.getByRole('button', { name: 'Close' }).click();
      await screen.button('Create').click();
      const form = await screen.form('Create Merchant');
      expect(await reachable(page, form.save())).toBe(true);
      expect(await overflowsHorizontally(page)).toBe(false);
      await expectAccessible(page, 'Create Merchant at 390', form.root);
      await shot(page, 'merchant-create-phone');
      await form.cancel();
      await screen.tool('Orxan', 'View').click();
      const drawer = await openedDialog(page, 'Merchants details');
      expect(await overflowsHorizontally(page)).toBe(false);
      await shot(page, 'merchant-details-phone');
      await drawer.getByRole('button', { name: 'Close' }).click();
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it('deletes the selected merchants after the question; Create and Export hide while rows are selected', async () => {
    await screen.rowCheckbox('Gülnar').check();
    await screen.rowCheckbox('Nigar').check();
    await screen.toolbar.getByText('2 selected', { exact: true }).waitFor();
    expect(await screen.button('Create').count()).toBe(0);
    expect(await screen.button('Export').count()).toBe(0);
    await screen.button('Delete').click();
    const question = await openedDialog(page, 'Delete');
    await question.getByText('Are you sure to delete?').waitFor();
    await expectAccessible(page, 'Delete merchants', question);
    await question.getByRole('button', { name: 'No' }).click();
    expect(await stored(merchant.gulnar)).toBeDefined();
    await screen.button('Delete').click();
    await (await openedDialog(page, 'Delete')).getByRole('button', { name: 'Yes' }).click();
    await until(() => stored(merchant.gulnar)).toBeUndefined();
    await until(() => screen.column('First name')).toEqual(['Orxan', 'Rəşad']);
    expect((await merchants()).map((row) => row.firstName).sort()).toEqual(['Orxan', 'Rəşad']);
  });
});
