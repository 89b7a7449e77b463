import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/axe';
import { PHONE, DESKTOP, shot } from '../support/browser';
import { createCampaign, createCategory, markAwaitingApproval, type CampaignRow } from '../support/campaignsApi';
import { DownloadFolder } from '../support/exports';
import { pngBytes } from '../support/images';
import { ListScreen, loadedImage, type ScreenSpec } from '../support/listScreen';
import { useSuite } from '../support/suite';
import { openedDialog, overflowsHorizontally, reachable, until } from '../support/ui';

const suite = useSuite();
const EXPECTED: ScreenSpec = { path: '/expectedcampaigns', title: 'Expected Campaigns' };
const CAMPAIGNS: ScreenSpec = { path: '/campaigns', title: 'Campaigns' };

describe('Expected Campaigns: waiting campaigns, approve to Campaigns, edit in the side panel, select all, delete, export', () => {
  let page: Page;
  let screen: ListScreen;
  const downloads = new DownloadFolder();

  const waiting = async () => (await (await suite.api()).list<CampaignRow>('campaign/notConfirmed')).data.map((row) => row.nameAz).sort();
  const confirmed = async () => (await (await suite.api()).list<CampaignRow>('campaign')).data.map((row) => row.nameAz).sort();

  beforeAll(async () => {
    const api = await suite.api();
    const png = (r: number) => pngBytes(40, [r, 120, 60], [255, 255, 255]);
    const partner = await api.createPartner(
      {
        name: 'Bravo Supermarket',
        contactPersonFirstName: 'Samir',
        contactPersonLastName: 'Quliyev',
        phoneNumber: '994553003344',
        email: 'samir@bravo.test',
        cities: [{ cityId: 1, address: 'Koroglu 5', latitude: 40.4152, longitude: 49.9331 }],
      },
      png(20),
    );
    const category = await createCategory(api, { nameAz: 'Market', nameEn: 'Grocery', nameRu: 'Продукты' }, png(90));
    const names = [
      ['Bahar endirimi', 'Spring sale', 'Весенняя распродажа', 30],
      ['Novruz səbəti', 'Novruz basket', 'Новруз корзина', 20],
      ['Şirniyyat həftəsi', 'Sweets week', 'Неделя сладостей', 15],
      ['Meyvə günü', 'Fruit day', 'День фруктов', 10],
    ] as const;
    const ids: number[] = [];
    for (const [index, [nameAz, nameEn, nameRu, discountPercent]] of names.entries()) {
      const campaign = await createCampaign(api, { partnerId: partner.id, campaignCategoryId: category.id, discountPercent, nameAz, nameEn, nameRu }, png(40 + index * 50), png(200));
      ids.push(campaign.id);
    }
    markAwaitingApproval(suite.server.dbPath, ids);
    page = await suite.signedIn(suite.admin, EXPECTED.path);
    screen = new ListScreen(page, EXPECTED);
    await screen.loaded();
  });

  afterAll(() => downloads.remove());

  beforeEach(() => screen.open());

  it('lists image, partner name, Az name, discount and expire date, with approve and edit; fits 1280 px', async () => {
    await page.getByRole('heading', { name: 'Expected Campaigns', level: 1 }).waitFor();
    expect(await screen.headers()).toEqual(['', 'Image', 'Partner name', 'Name Az', 'Discount percent', 'Expire date', 'Actions']);
    await screen.shows('Name Az', ['Meyvə günü', 'Şirniyyat həftəsi', 'Novruz səbəti', 'Bahar endirimi']);
    expect(await screen.column('Discount percent')).toEqual(['10%', '15%', '20%', '30%']);
    expect(await loadedImage(screen.rowImage('Bahar endirimi'))).toMatch(/cdn\/\w+\.png$/);
    expect(await screen.row('Bahar endirimi').getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')))).toEqual(['Edit', 'Approve', 'Delete']);
    expect(await overflowsHorizontally(page)).toBe(false);
    await expectAccessible(page, '/expectedcampaigns at 1280');
    await shot(page, 'expected-campaigns');
  });

  it('works at 390 px', async () => {
    await page.setViewportSize(PHONE);
    try {
      await screen.open();
      expect(await overflowsHorizontally(page)).toBe(false);
      await screen.shows('Name Az', ['Meyvə günü', 'Şirniyyat həftəsi', 'Novruz səbəti', 'Bahar endirimi']);
      await shot(page, 'expected-campaigns-phone');
      expect(await reachable(page, screen.button('Export'))).toBe(true);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it('approves a campaign: it leaves this list and appears in Campaigns', async () => {
    await screen.tool('Bahar endirimi', 'Approve').click();
    const dialog = await openedDialog(page, 'Approve');
    await dialog.getByText('Approve Bahar endirimi? It moves to Campaigns.').waitFor();
    await expectAccessible(page, 'Approve', dialog);
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await dialog.waitFor({ state: 'detached' });
    await until(() => screen.column('Name Az')).toEqual(['Meyvə günü', 'Şirniyyat həftəsi', 'Novruz səbəti']);
    expect(await confirmed()).toEqual(['Bahar endirimi']);
    const campaigns = new ListScreen(page, CAMPAIGNS);
    await campaigns.open();
    await campaigns.shows('Campaign name', ['Bahar endirimi']);
  });

  it('edits an expected campaign with the campaign form in the right side panel; it stays expected', async () => {
    await screen.tool('Novruz səbəti', 'Edit').click();
    const form = await screen.form('Edit Campaign');
    const panel = await page.locator('[data-side-panel]').boundingBox();
    expect(panel && Math.round(panel.x + panel.width)).toBe(DESKTOP.width);
    expect(await form.field('Partner').inputValue()).toBe('Bravo Supermarket');
    await form.field('Discount percent').fill('25');
    await form.root.getByRole('tab', { name: /^Ru/ }).click();
    await form.field('Name Ru').fill('Новруз корзина 2027');
    await expectAccessible(page, 'Edit Campaign (expected)', form.root);
    await shot(page, 'expected-campaign-edit');
    await form.saveAndClose();
    await until(() => screen.row('Novruz səbəti').innerText()).toContain('25%');
    const api = await suite.api();
    const row = (await api.list<CampaignRow>('campaign/notConfirmed')).data.find((campaign) => campaign.nameAz === 'Novruz səbəti');
    expect(await api.call<CampaignRow>('GET', `campaign/${row?.id}`)).toMatchObject({ discountPercent: 25, nameRu: 'Новруз корзина 2027', isConfirmed: false });
  });

  it('exports the list, then selects all and deletes the selected rows', async () => {
    const exported = await downloads.export(page, screen.button('Export'));
    expect(exported.fileName).toBe('ExpectedCampaigns.xlsx');
    expect(exported.data.map((row) => row[1]).sort()).toEqual(['Meyvə günü', 'Novruz səbəti', 'Şirniyyat həftəsi']);
    await screen.table.getByRole('checkbox', { name: 'Select all rows' }).check();
    await screen.toolbar.getByText('3 selected').waitFor();
    expect(await screen.button('Export').count(), 'export hidden while rows are selected').toBe(0);
    await screen.button('Delete').click();
    const question = await openedDialog(page, 'Delete');
    await question.getByText('Delete 3 expected campaigns?').waitFor();
    await question.getByRole('button', { name: 'Yes' }).click();
    await until(() => waiting()).toEqual([]);
    await screen.message().then((message) => expect(message).toBe('No information found'));
  });

});
