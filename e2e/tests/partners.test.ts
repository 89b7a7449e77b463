import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PartnerCityRow, PartnerRow } from '../support/api';
import { shot } from '../support/browser';
import { DownloadFolder } from '../support/exports';
import { PictureFolder, pngBytes } from '../support/images';
import { checkFitsDesktop, checkOnPhone, ListScreen, loadedImage, PARTNERS } from '../support/listScreen';
import { addCityRow, cityRow, cityRows, fillCityRow } from '../support/partnersScreen';
import { useSuite } from '../support/suite';
import { openedDialog, reachable, until } from '../support/ui';

const suite = useSuite();

// The seeded cities (migrations), by id; the picker names them in the content language (Az).
const CITY = { Baku: 1, Ganja: 2, Sumgait: 3 } as const;

const NEW_PARTNER = {
  name: 'Chinar Cafe',
  firstName: 'Leyla',
  lastName: 'Hasanova',
  email: 'leyla@chinar.test',
};

const MESSAGES = {
  citiesRequired: 'Cities is required',
  rowIncomplete: 'Address, Latitude and Longitude fields are required.',
  latitude: 'Latitude must be a number between -90 and 90.',
  longitude: 'Longitude must be a number between -180 and 180.',
  promoVersion: 'Choose the promo code version: Integration (1) or Static (2).',
};

describe('Partners: list, create with city rows, promo-code mode and an image, edit rows, drawer, status, filter, export, delete', () => {
  let page: Page;
  let partners: ListScreen;
  const pictures = new PictureFolder();
  const downloads = new DownloadFolder();

  /** The partner as `GET partner/{id}` has it now (with its branches). */
  const stored = async (name: string): Promise<PartnerRow | undefined> => {
    const api = await suite.api();
    const row = (await api.list<PartnerRow>('partner/filter', { Name: name })).data.find((partner) => partner.name === name);
    return row && api.call<PartnerRow>('GET', `partner/${row.id}`);
  };
  const branches = async (id: number): Promise<PartnerCityRow[]> =>
    (await (await suite.api()).call<{ data: PartnerCityRow[] }>('GET', `partner/cities/${id}`)).data;

  beforeAll(async () => {
    const api = await suite.api();
    await api.createPartner(
      {
        name: 'Araz Market',
        contactPersonFirstName: 'Tofiq',
        contactPersonLastName: 'Aliyev',
        phoneNumber: '994502001122',
        email: 'tofiq@araz.test',
        isPromoCodeUsing: false,
        cities: [{ cityId: CITY.Baku, address: 'Nizami 10', latitude: 40.3777, longitude: 49.892 }],
      },
      pngBytes(40, [220, 38, 38], [255, 255, 255]),
    );
    await api.createPartner(
      {
        name: 'Bravo Supermarket',
        contactPersonFirstName: 'Samir',
        contactPersonLastName: 'Quliyev',
        phoneNumber: '994553003344',
        email: 'samir@bravo.test',
        isPromoCodeUsing: true,
        promoCodeVersion: 1,
        cities: [
          { cityId: CITY.Baku, address: 'Koroglu 5', latitude: 40.4152, longitude: 49.9331 },
          { cityId: CITY.Ganja, address: 'Ataturk 2', latitude: 40.6828, longitude: 46.3606 },
        ],
      },
      pngBytes(40, [22, 163, 74], [255, 255, 255]),
    );
    page = await suite.signedIn(suite.admin, PARTNERS.path);
    partners = new ListScreen(page, PARTNERS);
    await partners.loaded();
  });

  afterAll(() => {
    pictures.remove();
    downloads.remove();
  });

  // Every test starts on the freshly loaded list, so one failure does not carry over.
  beforeEach(() => partners.open());

  it('shows Partners with the spec columns, pictures, and Promokod as Bəli / Xeyr', async () => {
    await page.getByRole('heading', { name: 'Partners', level: 1 }).waitFor();
    expect(await partners.headers()).toEqual(['', 'Image', 'Partner name', 'Contact person', 'Phone number', 'Email', 'Promokod', 'Status', 'Actions']);
    await partners.shows('Partner name', ['Bravo Supermarket', 'Araz Market']);
    expect(await partners.column('Promokod')).toEqual(['Bəli', 'Xeyr']);
    expect(await partners.column('Contact person')).toEqual(['Samir Quliyev', 'Tofiq Aliyev']);
    expect(await partners.row('Araz Market').innerText()).toContain('+994 50 200 11 22');
    for (const name of ['Araz Market', 'Bravo Supermarket']) expect(await loadedImage(partners.rowImage(name))).toMatch(/^\/cdn\/\w+\.png$/);
    // Promokod sorts by the flag behind the words.
    await partners.sortBy('Promokod').click();
    await until(() => partners.column('Promokod')).toEqual(['Xeyr', 'Bəli']);
    await partners.open();
    await shot(page, 'partners');
  });

  it('fits a 1280 px screen with long e-mails and Azerbaijani names: every column visible, no sideways scroll', async () => {
    const api = await suite.api();
    const long = await api.createPartner(
      {
        name: 'Şirvanşahlar Gözəllik və Sağlamlıq Mərkəzi',
        contactPersonFirstName: 'Gülnarə-Məleykə',
        contactPersonLastName: 'Məmmədova-Hüseynzadə',
        phoneNumber: '994553003344',
        email: 'gulnara.mammadova-huseynzada@sirvansahlar.test',
        isPromoCodeUsing: false,
        cities: [{ cityId: CITY.Baku, address: 'Nizami 10', latitude: 40.3777, longitude: 49.892 }],
      },
      pngBytes(24, [200, 120, 30], [255, 255, 255]),
    );
    try {
      await checkFitsDesktop(partners, 'partners-1280');
    } finally {
      await api.call('DELETE', 'partner', { id: [long.id] });
    }
  });

  it('creates a partner: the spec messages, city rows (add, remove, incomplete, off the map), promo-code mode, an image', async () => {
    await partners.button('Create').click();
    const form = await partners.form('Create Partner');
    // One empty city row to start with.
    expect(await cityRows(form)).toEqual([{ city: '', address: '', latitude: '', longitude: '' }]);
    await form.save().click();
    for (const message of ['Name is required', 'Contact person firstname is required', 'Contact person lastname is required', 'Phone number is required', 'Email is required', MESSAGES.citiesRequired]) {
      await form.message(message).waitFor();
    }
    await shot(page, 'partner-create-validation');

    // Without any row the cities are still required.
    await cityRow(form, 1).remove.click();
    expect(await cityRows(form)).toEqual([]);
    await form.message(MESSAGES.citiesRequired).waitFor();

    await form.field('Partner name').fill(NEW_PARTNER.name);
    await form.field('Contact person first name').fill(NEW_PARTNER.firstName);
    await form.field('Contact person last name').fill(NEW_PARTNER.lastName);
    await form.phone('077', '4445566');
    await form.field('Email').fill(NEW_PARTNER.email);

    // An incomplete row, then coordinates off the map.
    await addCityRow(form, { city: 'Bakı', address: 'Fountain Square 1', latitude: '', longitude: '' });
    await form.message(MESSAGES.rowIncomplete).waitFor();
    expect(await cityRow(form, 1).latitude.getAttribute('aria-invalid')).toBe('true');
    await fillCityRow(form, 1, { latitude: '95', longitude: '49.8671' });
    await form.message(MESSAGES.latitude).waitFor();
    await fillCityRow(form, 1, { latitude: '40.3719', longitude: '181' });
    await form.message(MESSAGES.longitude).waitFor();
    await fillCityRow(form, 1, { longitude: '49.8369' });
    await until(() => form.message(MESSAGES.longitude).count()).toBe(0);
    await addCityRow(form, { city: 'Gəncə', address: 'Javad Khan 7', latitude: '40.6790', longitude: '46.3606' });

    // Promo codes on: a version is required; off clears it; on again starts without one.
    const promo = form.field('Promo codes');
    expect(await promo.isChecked()).toBe(false);
    expect(await form.root.getByRole('radiogroup').count()).toBe(0);
    await promo.check();
    const versions = form.root.getByRole('radiogroup', { name: 'Promo code version' });
    await versions.waitFor();
    await form.save().click();
    await form.message(MESSAGES.promoVersion).waitFor();
    await versions.getByRole('radio', { name: 'Integration' }).check();
    await until(() => form.message(MESSAGES.promoVersion).count()).toBe(0);
    await promo.uncheck();
    await versions.waitFor({ state: 'detached' });
    await promo.check();
    expect(await versions.getByRole('radio', { name: 'Integration' }).isChecked(), 'turning promo codes off cleared the version').toBe(false);
    expect(await versions.getByRole('radio', { name: 'Static' }).isChecked()).toBe(false);
    await versions.getByRole('radio', { name: 'Static' }).check();

    // A non-image renamed .png is refused as soon as it is chosen (the browser cannot decode it);
    // a real PNG is saved.
    await form.chooseImage(pictures.fakePng);
    await form.message('Only PNG, JPEG, WebP or GIF images are accepted.').waitFor();
    expect(await form.message('Only PNG, JPEG, WebP or GIF images are accepted.').count(), 'said once, under the picker').toBe(1);
    expect(await form.preview().count(), 'the refused file is not chosen').toBe(0);
    expect(await form.alert().count()).toBe(0);
    await form.chooseImage(pictures.logo);
    await until(() => loadedImage(form.preview())).toMatch(/^blob:/);
    // A valid image takes the refusal away before the next Save.
    await until(() => form.alert().count()).toBe(0);
    expect(await form.message('Only PNG, JPEG, WebP or GIF images are accepted.').count()).toBe(0);
    // The long form scrolls from its title to Save.
    expect(await reachable(page, form.root.getByRole('heading', { name: 'Create Partner' })), 'the title can be scrolled to').toBe(true);
    expect(await reachable(page, form.save()), 'Save can be scrolled to').toBe(true);
    await shot(page, 'partner-create-filled');
    await form.saveAndClose();

    await until(() => partners.column('Partner name').then((names) => names[0])).toBe(NEW_PARTNER.name);
    expect(await partners.row(NEW_PARTNER.name).innerText()).toContain('Bəli');
    expect(await partners.row(NEW_PARTNER.name).innerText()).toContain('Leyla Hasanova');
    const src = await loadedImage(partners.rowImage(NEW_PARTNER.name));
    const image = await fetch(new URL(src, suite.server.baseUrl));
    expect(Buffer.from(await image.arrayBuffer()).equals(readFileSync(pictures.logo))).toBe(true);

    const partner = await stored(NEW_PARTNER.name);
    expect(partner).toMatchObject({
      contactPersonFirstName: NEW_PARTNER.firstName,
      contactPersonLastName: NEW_PARTNER.lastName,
      contactPerson: 'Leyla Hasanova',
      phoneNumber: '994774445566',
      email: NEW_PARTNER.email,
      isPromoCodeUsing: true,
      promoCodeVersion: 2,
      promoCode: 'Bəli',
    });
    expect(partner?.cities?.map(({ cityId, address, latitude, longitude }) => ({ cityId, address, latitude, longitude }))).toEqual([
      { cityId: CITY.Baku, address: 'Fountain Square 1', latitude: 40.3719, longitude: 49.8369 },
      { cityId: CITY.Ganja, address: 'Javad Khan 7', latitude: 40.679, longitude: 46.3606 },
    ]);
  });

  it('edits a partner: adds a city row, edits one and removes one; the image stays', async () => {
    const before = await stored('Bravo Supermarket');
    const [baku, ganja] = before?.cities ?? [];
    await partners.tool('Bravo Supermarket', 'Edit').click();
    const form = await partners.form('Edit Partner');
    await until(() => form.field('Partner name').inputValue()).toBe('Bravo Supermarket');
    expect(await form.field('Contact person first name').inputValue()).toBe('Samir');
    expect(await form.field('Contact person last name').inputValue()).toBe('Quliyev');
    expect(await form.field('Phone number').inputValue()).toBe('300 33 44');
    expect(await form.field('Promo codes').isChecked()).toBe(true);
    expect(await form.root.getByRole('radio', { name: 'Integration' }).isChecked()).toBe(true);
    expect(await loadedImage(form.preview())).toBe(`/${before?.filePath}`);
    expect(await cityRows(form)).toEqual([
      { city: 'Bakı', address: 'Koroglu 5', latitude: '40.4152', longitude: '49.9331' },
      { city: 'Gəncə', address: 'Ataturk 2', latitude: '40.6828', longitude: '46.3606' },
    ]);
    await shot(page, 'partner-edit');

    // Add Sumqayıt, edit the Baku row, then remove the Ganja row in the middle.
    await addCityRow(form, { city: 'Sumqayıt', address: 'Sulh 3', latitude: '40.5897', longitude: '49.6686' });
    await fillCityRow(form, 1, { address: 'Koroglu 7', latitude: '40.4160' });
    await cityRow(form, 2).remove.click();
    await until(() => cityRows(form)).toEqual([
      { city: 'Bakı', address: 'Koroglu 7', latitude: '40.4160', longitude: '49.9331' },
      { city: 'Sumqayıt', address: 'Sulh 3', latitude: '40.5897', longitude: '49.6686' },
    ]);
    await shot(page, 'partner-edit-rows');
    await form.saveAndClose();

    const after = await branches(before?.id ?? 0);
    expect(after.map(({ id, cityId, address, latitude, longitude }) => ({ id, cityId, address, latitude, longitude }))).toEqual([
      { id: baku.id, cityId: CITY.Baku, address: 'Koroglu 7', latitude: 40.416, longitude: 49.9331 },
      { id: expect.any(Number), cityId: CITY.Sumgait, address: 'Sulh 3', latitude: 40.5897, longitude: 49.6686 },
    ]);
    expect(after.map((city) => city.id)).not.toContain(ganja.id);
    expect(after[1].id).not.toBe(ganja.id);
    expect((await stored('Bravo Supermarket'))?.filePath, 'no new image, the old one stays').toBe(before?.filePath);
  });

  it('turns promo codes off in the edit form: the version is cleared and Promokod shows Xeyr', async () => {
    await partners.tool('Bravo Supermarket', 'Edit').click();
    const form = await partners.form('Edit Partner');
    await until(() => form.field('Partner name').inputValue()).toBe('Bravo Supermarket');
    await form.field('Promo codes').uncheck();
    await form.saveAndClose();
    await until(() => partners.row('Bravo Supermarket').innerText()).toContain('Xeyr');
    expect(await stored('Bravo Supermarket')).toMatchObject({ isPromoCodeUsing: false, promoCodeVersion: null, promoCode: 'Xeyr' });
  });

  it("opens the 'Partner details' drawer with the partner's own data and its branches", async () => {
    const partner = await stored(NEW_PARTNER.name);
    await partners.tool(NEW_PARTNER.name, 'View').click();
    const drawer = await openedDialog(page, 'Partner details');
    const branchList = drawer.getByRole('region', { name: 'Branches' });
    await branchList.waitFor();
    const pairs = await drawer.locator('dl > div').evaluateAll((items) => items.map((item) => [item.querySelector('dt')?.textContent, item.querySelector('dd')?.textContent]));
    expect(Object.fromEntries(pairs)).toMatchObject({
      'Partner name': NEW_PARTNER.name,
      'Contact person full name': 'Leyla Hasanova',
      'Phone number': '+994 77 444 55 66',
      Email: NEW_PARTNER.email,
      Promokod: 'Bəli · Static',
      Status: 'Active',
    });
    expect(await loadedImage(drawer.getByRole('img', { name: NEW_PARTNER.name }))).toBe(`/${partner?.filePath}`);
    expect(await branchList.getByRole('listitem').allInnerTexts()).toEqual([
      // The coordinates carry a label for screen readers only.
      expect.stringMatching(/^Bakı\s+Fountain Square 1\s+Latitude, Longitude:\s+40\.3719, 49\.8369$/),
      expect.stringMatching(/^Gəncə\s+Javad Khan 7\s+Latitude, Longitude:\s+40\.679, 46\.3606$/),
    ]);
    // Design: the partner's real data, not the spec's 'Gold' / Score Limit 30 placeholders.
    expect(await drawer.getByText(/Gold|Score Limit/).count()).toBe(0);
    const panel = await drawer.locator('[id^="headlessui-dialog-panel"]').boundingBox();
    expect(panel?.width).toBe(400);
    await shot(page, 'partner-details');
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'detached' });
  });

  it('toggles the status; the list and the API agree', async () => {
    const toggle = partners.statusSwitch('Araz Market');
    expect(await toggle.getAttribute('aria-label')).toBe('Change status: Araz Market');
    await toggle.click();
    await until(() => partners.row('Araz Market').innerText()).toContain('Inactive');
    expect((await stored('Araz Market'))?.isActive).toBe(false);
    await toggle.click();
    await until(() => toggle.getAttribute('aria-checked')).toBe('true');
    expect((await stored('Araz Market'))?.isActive).toBe(true);
  });

  it('filters by name and by contact person (Name, ContactPersonName)', async () => {
    await partners.showFilter();
    const cases: [label: string, typed: string, param: string, expected: string[]][] = [
      ['Name', 'mark', 'Name', ['Bravo Supermarket', 'Araz Market']],
      ['Contact person', 'Leyla Has', 'ContactPersonName', [NEW_PARTNER.name]],
    ];
    for (const [label, typed, param, expected] of cases) {
      const field = partners.filterField(label);
      await Promise.all([
        page.waitForRequest((r) => new URL(r.url()).pathname === '/api/partner/filter' && new URL(r.url()).searchParams.get(param) === typed),
        field.fill(typed),
      ]);
      await partners.shows('Partner name', expected);
      await shot(page, 'partners-filter');
      await field.fill('');
      await partners.shows('Partner name', [NEW_PARTNER.name, 'Bravo Supermarket', 'Araz Market']);
    }
  });

  it('exports Partners.xlsx with every partner and its promo-code mode', async () => {
    const exported = await downloads.export(page, partners.button('Export'));
    expect(exported.fileName).toBe('Partners.xlsx');
    expect(exported.header).toEqual(['Partner name', 'Contact person', 'Phone number', 'Email', 'Promokod', 'Promo code version', 'Active']);
    expect(exported.headerBold).toBe(true);
    expect(exported.data.map((row) => row[0]).sort()).toEqual(['Araz Market', 'Bravo Supermarket', NEW_PARTNER.name]);
    expect(exported.data.find((row) => row[0] === NEW_PARTNER.name)?.slice(0, 7)).toEqual([NEW_PARTNER.name, 'Leyla Hasanova', '+994 77 444 55 66', NEW_PARTNER.email, 'Bəli', '2', 'true']);
    expect(exported.data.find((row) => row[0] === 'Bravo Supermarket')?.slice(4, 6)).toEqual(['Xeyr', '']);
  });

  it('works on a phone (390 px): no sideways page scroll, the create form reachable top to bottom', async () => {
    await checkOnPhone(partners, 'Create Partner', 'partners');
  });

  it("deletes the selected partners after 'Are you sure to delete?'", async () => {
    await partners.rowCheckbox('Araz Market').check();
    await partners.rowCheckbox('Bravo Supermarket').check();
    await partners.toolbar.getByText('2 selected').waitFor();
    await partners.button('Delete').click();
    const confirm = await openedDialog(page, 'Delete');
    expect(await confirm.getByText('Are you sure to delete?').isVisible()).toBe(true);
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await confirm.waitFor({ state: 'detached' });
    await partners.shows('Partner name', [NEW_PARTNER.name]);
    expect(await stored('Araz Market')).toBeUndefined();
    expect(await stored('Bravo Supermarket')).toBeUndefined();
  });
});
