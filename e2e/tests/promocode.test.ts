import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/axe';
import { DESKTOP, PHONE, shot, TABLET } from '../support/browser';
import { createCampaign, createCategory } from '../support/campaignsApi';
import { DownloadFolder } from '../support/exports';
import { pngBytes } from '../support/images';
import { checkFitsDesktop, ListScreen, type ScreenSpec } from '../support/listScreen';
import { useSuite } from '../support/suite';
import { openedDialog, overflowsHorizontally, reachable, until } from '../support/ui';
import type { Schema } from '../support/contract';
import { runSql } from '../support/sql';

const suite = useSuite();
const PROMOCODE: ScreenSpec = { path: '/promocode', title: 'Promocode' };
const CITY = { Baku: 1 } as const;
/** 8 characters without the ones read alike (0/O, 1/I/L). */
const CODE = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/;

type PromoCodeRow = Schema<'PromoCodeRow'>;

const MESSAGES = {
  partner: 'Partner is required',
  category: 'Campaign category is required',
  count: 'Count is required',
  number: 'Count must be a number',
  max: 'Count must be less than or equal to 500',
  notPromoPartner: 'This partner does not hand out promo codes.',
};

describe('Promocode: list, Create (partner, campaign category, count), Export Excel, selection and delete', () => {
  let page: Page;
  let screen: ListScreen;
  const downloads = new DownloadFolder();
  const partner = { bulvar: 0, qala: 0, nargiz: 0 };
  const campaign = { coffee: 0, lunch: 0, qala: 0 };

  const codes = async () => (await (await suite.api()).list<PromoCodeRow>('promoCode')).data;
  const sql = (statement: string) => runSql(suite.server.dbPath, statement);
  const options = (select: ReturnType<Page['getByLabel']>) => select.locator('option').allInnerTexts();

  beforeAll(async () => {
    const api = await suite.api();
    const png = (r: number) => pngBytes(32, [r, 90, 160], [255, 255, 255]);
    const branch = [{ cityId: CITY.Baku, address: 'Nizami küç. 5', latitude: 40.3777, longitude: 49.892 }];
    const contact = { contactPersonFirstName: 'Emin', contactPersonLastName: 'Sadıqov', phoneNumber: '994707631141' };
    partner.bulvar = (await api.createPartner({ name: 'Bulvar Kafe', ...contact, email: 'info@bulvarkafe.test', isPromoCodeUsing: true, promoCodeVersion: 2, cities: branch })).id;
    partner.nargiz = (await api.createPartner({ name: 'Nargiz Restoran', ...contact, email: 'info@nargiz.test', isPromoCodeUsing: true, promoCodeVersion: 1, cities: branch })).id;
    partner.qala = (await api.createPartner({ name: 'Qala Kafe', ...contact, email: 'info@qalakafe.test', cities: branch })).id;
    const food = await createCategory(api, { nameAz: 'Yemək', nameEn: 'Food', nameRu: 'Еда' }, png(30));
    const make = async (partnerId: number, nameAz: string, nameEn: string) =>
      (await createCampaign(api, { partnerId, campaignCategoryId: food.id, discountPercent: 20, nameAz, nameEn, nameRu: `${nameEn} (ru)` }, png(60), png(120))).id;
    campaign.coffee = await make(partner.bulvar, 'Səhər qəhvəsi 20%', 'Morning coffee 20%');
    campaign.lunch = await make(partner.bulvar, 'Nahar menyusu', 'Lunch menu');
    campaign.qala = await make(partner.qala, 'Qala şirniyyatı', 'Qala sweets');
    await make(partner.nargiz, 'Nərgiz axşamı', 'Nargiz evening');
    page = await suite.signedIn(suite.admin, PROMOCODE.path);
    screen = new ListScreen(page, PROMOCODE);
    await screen.loaded();
  });

  afterAll(() => downloads.remove());

  beforeEach(() => screen.open());

  it('starts empty with Create and Export, the spec columns, and says so', async () => {
    await page.getByRole('heading', { name: 'Promocode', level: 1 }).waitFor();
    expect(await screen.message()).toBe('No information found');
    expect(await screen.headers()).toEqual(['', 'Partner name', 'Campaign name', 'Code', 'Used', 'Used date', 'Actions']);
    expect(await screen.button('Create').isVisible()).toBe(true);
    expect(await screen.button('Export').isVisible()).toBe(true);
    await expectAccessible(page, '/promocode empty');
  });

  it('creates 3 codes: spec messages, only promo partners, the partner’s campaigns by their Az name', async () => {
    await screen.button('Create').click();
    const form = await screen.form('Create');
    // The first field, the partner picker, takes focus (once its code has loaded).
    await until(() => form.field('Partner').evaluate((element) => element === document.activeElement)).toBe(true);
    await form.save().click();
    for (const message of [MESSAGES.partner, MESSAGES.category, MESSAGES.count]) await form.message(message).waitFor();
    await expectAccessible(page, 'Create promo codes with messages', form.root);
    await shot(page, 'promocode-create-validation');

    // Only active partners with promo codes on are offered (partner?status=true).
    const partnerField = form.field('Partner');
    await partnerField.click();
    const listbox = page.getByRole('listbox');
    await until(() => listbox.getByRole('option').allInnerTexts()).toEqual(['Bulvar Kafe', 'Nargiz Restoran']);
    await page.keyboard.press('Escape');
    await form.pick(partnerField, 'Bulv', 'Bulvar Kafe');
    const category = form.field('Campaign');
    await until(() => options(category)).toEqual(['Choose a campaign', 'Nahar menyusu', 'Səhər qəhvəsi 20%']);
    await form.pick(partnerField, 'Narg', 'Nargiz Restoran');
    await until(() => options(category)).toEqual(['Choose a campaign', 'Nərgiz axşamı']);
    await form.pick(partnerField, 'Bulv', 'Bulvar Kafe');
    await until(() => options(category)).toEqual(['Choose a campaign', 'Nahar menyusu', 'Səhər qəhvəsi 20%']);
    expect(await category.inputValue()).toBe('');
    await category.selectOption({ label: 'Səhər qəhvəsi 20%' });

    const count = form.field('Count');
    await count.fill('abc');
    await form.message(MESSAGES.number).waitFor();
    await count.fill('501');
    await form.message(MESSAGES.max).waitFor();
    await count.fill('3');
    await shot(page, 'promocode-create-filled');
    await form.saveAndClose();
    await page.getByText('3 promo codes created').waitFor();

    await until(() => screen.column('Code').then((column) => column.length)).toBe(3);
    const shown = await screen.column('Code');
    for (const code of shown) expect(code).toMatch(CODE);
    expect(new Set(shown).size).toBe(3);
    expect(await screen.column('Partner name')).toEqual(['Bulvar Kafe', 'Bulvar Kafe', 'Bulvar Kafe']);
    expect(await screen.column('Campaign name')).toEqual(['Səhər qəhvəsi 20%', 'Səhər qəhvəsi 20%', 'Səhər qəhvəsi 20%']);
    expect(await screen.column('Used')).toEqual(['Xeyr', 'Xeyr', 'Xeyr']);
    expect((await codes()).map((row) => row.code).sort()).toEqual([...shown].sort());
  });

  it('shows Used as Bəli with its date once a code was used, and fits 1280 px', async () => {
    const [first] = await codes();
    sql(`UPDATE promo_codes SET is_used = 1, used_date = '2026-11-20T08:30:00Z' WHERE id = ${first.id};`);
    await screen.open();
    const row = screen.row(first.code);
    await row.getByText('Bəli', { exact: true }).waitFor();
    // 08:30 UTC in the browser's zone (Asia/Baku, +04:00).
    await row.getByText('20-11-2026 12:30', { exact: true }).waitFor();
    await expectAccessible(page, '/promocode at 1280');
    await checkFitsDesktop(screen, 'promocode-1280', { statusColumn: false });
    // Every column sorts; Used by the flag behind Bəli / Xeyr. Codes sort in the Azerbaijani
    // alphabet, as the server sorts text (X comes after H there, Q after K).
    const azerbaijani = new Intl.Collator('az', { sensitivity: 'accent' });
    const sorted = [...(await screen.column('Code'))].sort(azerbaijani.compare);
    await screen.sortBy('Code').click();
    await screen.shows('Code', sorted);
    await screen.sortBy('Code').click();
    await screen.shows('Code', [...sorted].reverse());
    const sortByUsed = screen.table.getByRole('columnheader', { name: 'Used', exact: true }).getByRole('button');
    await sortByUsed.click();
    await screen.shows('Used', ['Xeyr', 'Xeyr', 'Bəli']);
    await sortByUsed.click();
    await screen.shows('Used', ['Bəli', 'Xeyr', 'Xeyr']);
    for (const header of ['Partner name', 'Campaign name', 'Used date']) {
      await screen.sortBy(header).click();
      await until(() => screen.column('Code').then((column) => column.length)).toBe(3);
    }
  });

  it('shows a refused creation under the campaign category field', async () => {
    await screen.button('Create').click();
    const form = await screen.form('Create');
    await form.pick(form.field('Partner'), 'Narg', 'Nargiz Restoran');
    const category = form.field('Campaign');
    await until(() => options(category)).toEqual(['Choose a campaign', 'Nərgiz axşamı']);
    await category.selectOption({ label: 'Nərgiz axşamı' });
    await form.field('Count').fill('5');
    // Meanwhile another operator turns the partner's promo codes off (written into the database as the partner form would).
    sql(`UPDATE partners SET is_promo_code_using = 0, promo_code_version = NULL WHERE id = ${partner.nargiz};`);
    try {
      await form.save().click();
      await form.message(MESSAGES.notPromoPartner).waitFor();
      expect(await category.getAttribute('aria-invalid')).toBe('true');
      expect(await category.getAttribute('aria-describedby')).toBeTruthy();
      expect(await form.root.getByRole('alert').count()).toBe(0);
      await expectAccessible(page, 'Create promo codes refused', form.root);
      await shot(page, 'promocode-create-refused');
      await form.cancel();
      expect((await codes()).length).toBe(3);
    } finally {
      sql(`UPDATE partners SET is_promo_code_using = 1, promo_code_version = 1 WHERE id = ${partner.nargiz};`);
    }
  });

  it('exports one campaign’s codes from the Export Excel dialog as Promocode.xlsx', async () => {
    const created = await codes();
    await screen.button('Export').click();
    const dialog = await openedDialog(page, 'Export Excel');
    const form = await screen.form('Export Excel');
    await form.root.getByRole('button', { name: 'Download' }).click();
    await form.message(MESSAGES.partner).waitFor();
    await form.message(MESSAGES.category).waitFor();
    await expectAccessible(page, 'Promo code export dialog', dialog);
    await form.pick(form.field('Partner'), 'Bulv', 'Bulvar Kafe');
    const category = form.field('Campaign');
    await until(() => options(category)).toEqual(['Choose a campaign', 'Nahar menyusu', 'Səhər qəhvəsi 20%']);
    await category.selectOption({ label: 'Səhər qəhvəsi 20%' });
    await shot(page, 'promocode-export');
    const exported = await downloads.export(page, dialog.getByRole('button', { name: 'Download' }));
    expect(exported.fileName).toBe('Promocode.xlsx');
    expect(exported.headerBold).toBe(true);
    expect(exported.header).toEqual(['Partner name', 'Campaign name', 'Code', 'Used', 'Used date']);
    expect(exported.data.map((row) => row[2]).sort()).toEqual(created.map((row) => row.code).sort());
    expect(exported.data.map((row) => row.slice(0, 2))).toEqual(created.map(() => ['Bulvar Kafe', 'Səhər qəhvəsi 20%']));
    expect(exported.data.map((row) => row[3]).sort()).toEqual(['Bəli', 'Xeyr', 'Xeyr']);
    await dialog.waitFor({ state: 'detached' });

    // Another campaign of the partner has no codes: a workbook with the header only.
    await screen.button('Export').click();
    const again = await screen.form('Export Excel');
    await again.pick(again.field('Partner'), 'Bulv', 'Bulvar Kafe');
    await until(() => options(again.field('Campaign'))).toContain('Nahar menyusu');
    await again.field('Campaign').selectOption({ label: 'Nahar menyusu' });
    const empty = await downloads.export(page, again.root.getByRole('button', { name: 'Download' }));
    expect(empty.header).toEqual(['Partner name', 'Campaign name', 'Code', 'Used', 'Used date']);
    expect(empty.data).toEqual([]);
  });

  it('works at 1024 and 390 px: the list, the Create and Export Excel dialogs', async () => {
    await page.setViewportSize(TABLET);
    try {
      await screen.open();
      expect(await overflowsHorizontally(page)).toBe(false);
      expect(await reachable(page, screen.rows.first().getByRole('button', { name: 'Delete' }))).toBe(true);
      await shot(page, 'promocode-1024');
    } finally {
      await page.setViewportSize(DESKTOP);
    }
    await page.setViewportSize(PHONE);
    try {
      await screen.open();
      expect(await overflowsHorizontally(page)).toBe(false);
      await expectAccessible(page, '/promocode at 390');
      await shot(page, 'promocode-phone');
      await screen.button('Create').click();
      const form = await screen.form('Create');
      expect(await reachable(page, form.save())).toBe(true);
      expect(await overflowsHorizontally(page)).toBe(false);
      await expectAccessible(page, 'Create promo codes at 390', form.root);
      await shot(page, 'promocode-create-phone');
      await form.cancel();
      await screen.button('Export').click();
      const exportForm = await screen.form('Export Excel');
      expect(await reachable(page, exportForm.root.getByRole('button', { name: 'Download' }))).toBe(true);
      expect(await overflowsHorizontally(page)).toBe(false);
      await exportForm.cancel();
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it('selects rows: N selected and Delete replace Create and Export; deletes after the question', async () => {
    const [first, second, third] = await codes();
    await screen.rowCheckbox(first.code).check();
    await screen.rowCheckbox(second.code).check();
    await screen.toolbar.getByText('2 selected', { exact: true }).waitFor();
    expect(await screen.button('Create').count()).toBe(0);
    await shot(page, 'promocode-selected');
    await screen.button('Delete').click();
    const question = await openedDialog(page, 'Delete');
    await expectAccessible(page, 'Delete promo codes', question);
    await question.getByRole('button', { name: 'Yes' }).click();
    await until(() => codes().then((rows) => rows.map((row) => row.code))).toEqual([third.code]);
    await until(() => screen.column('Code')).toEqual([third.code]);
    expect(await screen.button('Create').isVisible()).toBe(true);
  });
});
