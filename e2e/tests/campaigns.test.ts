import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/axe';
import { DESKTOP, shot, TABLET } from '../support/browser';
import { createCampaign, createCategory, type CampaignRow, type NotificationRow } from '../support/campaignsApi';
import { DownloadFolder } from '../support/exports';
import { PictureFolder, pngBytes } from '../support/images';
import { checkFitsDesktop, checkOnPhone, ListScreen, loadedImage, type ScreenSpec } from '../support/listScreen';
import { useSuite } from '../support/suite';
import { openedDialog, overflowsHorizontally, reachable, until } from '../support/ui';

const suite = useSuite();
const CAMPAIGNS: ScreenSpec = { path: '/campaigns', title: 'Campaigns' };

const NEW_CAMPAIGN = { nameAz: 'Qış endirimi', nameEn: 'Winter sale', descriptionAz: 'Bütün paltolara 25% endirim.\nYalnız mağazada.' };

describe('Campaigns: list in each content language, create in the side panel, edit, send notification, drawer, filter, export, delete', () => {
  let page: Page;
  let screen: ListScreen;
  let seeded: CampaignRow;
  const ids = { partner: 0, food: 0, clothes: 0, bank: 0, telecom: 0 };
  const pictures = new PictureFolder();
  const downloads = new DownloadFolder();

  const api = () => suite.api();
  const stored = async (nameAz: string): Promise<CampaignRow | undefined> => {
    const client = await api();
    const row = (await client.list<CampaignRow>('campaign/filter', { CampaignName: nameAz })).data.find((campaign) => campaign.nameAz === nameAz);
    return row && client.call<CampaignRow>('GET', `campaign/${row.id}`);
  };

  beforeAll(async () => {
    const client = await api();
    const png = (r: number) => pngBytes(40, [r, 70, 200], [255, 255, 255]);
    ids.partner = (
      await client.createPartner(
        {
          name: 'Araz Market',
          contactPersonFirstName: 'Tofiq',
          contactPersonLastName: 'Aliyev',
          phoneNumber: '994502001122',
          email: 'tofiq@araz.test',
          cities: [{ cityId: 1, address: 'Nizami 10', latitude: 40.3777, longitude: 49.892 }],
        },
        png(200),
      )
    ).id;
    ids.food = (await createCategory(client, { nameAz: 'Yemək', nameEn: 'Food', nameRu: 'Еда' }, png(30))).id;
    ids.clothes = (await createCategory(client, { nameAz: 'Geyim', nameEn: 'Clothes', nameRu: 'Одежда' }, png(90))).id;
    const asset = (name: string, prefix: string) =>
      client.createAsset({ name, contactPerson: 'Nigar Həsənova', phoneNumber: '994501234567', email: `${prefix.toLowerCase()}@asset.test`, barcodePrefix: prefix }, png(120));
    ids.bank = (await asset('Kapital Bank', 'KB1')).id;
    ids.telecom = (await asset('Azercell', 'AZ1')).id;
    seeded = await createCampaign(
      client,
      { partnerId: ids.partner, campaignCategoryId: ids.clothes, discountPercent: 10, nameAz: 'Payız kolleksiyası', nameEn: 'Autumn collection', nameRu: 'Осенняя коллекция', specialOffer: true, assets: [ids.bank] },
      png(10),
      png(250),
    );
    page = await suite.signedIn(suite.admin, CAMPAIGNS.path);
    screen = new ListScreen(page, CAMPAIGNS);
    await screen.loaded();
  });

  afterAll(() => {
    pictures.remove();
    downloads.remove();
  });

  beforeEach(() => screen.open());

  it('shows the spec columns, the name in each content language, and fits 1280 px', async () => {
    await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor();
    expect(await screen.headers()).toEqual(['', 'Image', 'Partner name', 'Campaign name', 'Discount percent', 'Special offer', 'Premium', 'Expire date', 'Order', 'Uses', 'Status', 'Actions']);
    await screen.shows('Campaign name', ['Payız kolleksiyası']);
    expect(await screen.column('Special offer')).toEqual(['Yes']);
    expect(await screen.column('Premium')).toEqual(['No']);
    expect(await screen.column('Discount percent')).toEqual(['10%']);
    expect(await screen.column('Expire date')).toEqual([(await screen.column('Expire date'))[0].match(/^\d{2}-\d{2}-\d{4}$/)?.[0] ?? 'not dd-MM-yyyy']);
    expect(await loadedImage(screen.rowImage('Payız'))).toMatch(/cdn\/\w+\.png$/);
    const language = page.getByRole('combobox', { name: 'Content language' });
    await language.selectOption({ label: 'En' });
    await screen.shows('Campaign name', ['Autumn collection']);
    await language.selectOption({ label: 'Ru' });
    await screen.shows('Campaign name', ['Осенняя коллекция']);
    await language.selectOption({ label: 'Az' });
    await screen.shows('Campaign name', ['Payız kolleksiyası']);
    await expectAccessible(page, '/campaigns at 1280');
    await checkFitsDesktop(screen, 'campaigns-1280');
  });

  it('creates a campaign in the side panel: every message, three languages with copy from Az, both images, two assets and an order position', async () => {
    await screen.button('Create').click();
    const form = await screen.form('Create Campaign');
    const panel = await page.locator('[data-side-panel]').boundingBox();
    expect(panel && Math.round(panel.x + panel.width)).toBe(1280);
    await form.save().click();
    for (const message of ['Partner is required', 'Discount percent is required', 'Start date is required', 'Expire date is required', 'Campaign category is required', 'Name is required', 'Description is required', 'File is required', 'Background file is required']) {
      await form.message(message).first().waitFor();
    }
    await form.root.getByRole('tab', { name: /^En.*has a message/ }).waitFor();
    await expectAccessible(page, 'Create Campaign with messages', form.root);
    await shot(page, 'campaign-create-validation');

    await form.pick(form.field('Partner'), 'Araz', 'Araz Market');
    await form.field('Discount percent').fill('101');
    await form.message('Discount percent cannot be greater than 100').waitFor();
    await form.field('Discount percent').fill('25');
    await form.field('Start date').fill('2030-05-01T10:00');
    await form.field('Expire date').fill('2030-04-01T10:00');
    await form.message('Expire date must be after the start date').waitFor();
    await form.field('Expire date').fill('2030-06-30T18:00');
    await form.pick(form.field('Campaign category'), 'Gey', 'Geyim');
    const order = form.field('Order');
    await until(() => order.locator('option').allInnerTexts()).toEqual(['Last position', '1 · Araz Market: Payız kolleksiyası']);
    await order.selectOption('1');

    await form.field('Name Az').fill(NEW_CAMPAIGN.nameAz);
    await form.field('Description Az').fill(NEW_CAMPAIGN.descriptionAz);
    expect(await form.field('Description Az').getAttribute('rows')).toBe('4');
    await form.root.getByRole('tab', { name: /^En/ }).click();
    await form.root.getByRole('button', { name: 'Copy from Az' }).click();
    expect(await form.field('Description En').inputValue()).toBe(NEW_CAMPAIGN.descriptionAz);
    await form.field('Name En').fill(NEW_CAMPAIGN.nameEn);
    await form.root.getByRole('tab', { name: /^Ru/ }).click();
    await form.root.getByRole('button', { name: 'Copy from Az' }).click();
    expect(await form.field('Name Ru').inputValue()).toBe(NEW_CAMPAIGN.nameAz);

    await form.field('Image').setInputFiles(pictures.logo);
    await form.field('Background image').setInputFiles(pictures.otherLogo);
    await until(() => form.root.getByRole('img', { name: 'Image preview' }).count()).toBe(2);
    await form.field('Premium').check();
    expect(await reachable(page, form.save()), 'Save can be scrolled to').toBe(true);
    // Two assets picked, then Save clicked at once: each pick closes the list and clears the
    // search, so the click lands on Save (an open list over the action bar used to take it).
    const assets = form.field('Assets');
    await assets.click();
    await assets.fill('Kap');
    await page.getByRole('listbox').getByRole('option', { name: 'Kapital Bank' }).click();
    await until(() => page.getByRole('listbox').count()).toBe(0);
    expect(await assets.inputValue(), 'the search clears after a pick').toBe('');
    await assets.click();
    await page.getByRole('listbox').getByRole('option', { name: 'Azercell' }).click();
    await form.root.getByRole('list', { name: 'Chosen' }).getByText('Azercell').waitFor();
    await expectAccessible(page, 'Create Campaign filled', form.root);
    await shot(page, 'campaign-create-filled');
    await form.saveAndClose();

    await until(() => screen.column('Campaign name')).toContain(NEW_CAMPAIGN.nameAz);
    const created = await stored(NEW_CAMPAIGN.nameAz);
    expect(created).toMatchObject({
      partnerId: ids.partner,
      campaignCategoryId: ids.clothes,
      discountPercent: 25,
      nameEn: NEW_CAMPAIGN.nameEn,
      nameRu: NEW_CAMPAIGN.nameAz,
      isPremium: true,
      specialOffer: false,
      order: 1,
      isConfirmed: true,
      notificationStatus: 0,
    });
    // Multipart sends a text area's line breaks as CRLF.
    expect(created?.descriptionRu?.replace(/\r\n/g, '\n')).toBe(NEW_CAMPAIGN.descriptionAz);
    expect(created?.assets).toEqual([ids.bank, ids.telecom].sort((a, b) => a - b));
    expect(created?.filePath).toMatch(/cdn\/\w+\.png$/);
    expect(created?.backgroundFilePath).toMatch(/cdn\/\w+\.png$/);
    expect(new Date(created!.startDate).getTime()).toBe(new Date('2030-05-01T10:00:00+04:00').getTime());
    expect((await stored('Payız kolleksiyası'))?.order, 'the taken position moved down').toBe(2);
  });

  it('edits a campaign in the side panel: values and assets loaded, another category, the images kept', async () => {
    await screen.tool('Payız kolleksiyası', 'Edit').click();
    const form = await screen.form('Edit Campaign');
    expect(await form.field('Partner').inputValue()).toBe('Araz Market');
    expect(await form.field('Discount percent').inputValue()).toBe('10');
    await form.root.getByRole('list', { name: 'Chosen' }).getByText('Kapital Bank').waitFor();
    await form.root.getByRole('tab', { name: /^En/ }).click();
    expect(await form.field('Name En').inputValue()).toBe('Autumn collection');
    await form.field('Discount percent').fill('15');
    await form.pick(form.field('Campaign category'), 'Yem', 'Yemək');
    await until(() => form.field('Order').locator('option').allInnerTexts()).toEqual(['Current position']);
    await expectAccessible(page, 'Edit Campaign', form.root);
    await shot(page, 'campaign-edit');
    await form.saveAndClose();
    const edited = await stored('Payız kolleksiyası');
    expect(edited).toMatchObject({ discountPercent: 15, campaignCategoryId: ids.food, order: 1, filePath: seeded.filePath });
  });

  it('sends a notification once: the spec message, then the text; the action goes away', async () => {
    await screen.tool('Payız kolleksiyası', 'Send notification').click();
    const dialog = await screen.form('Send notification');
    await dialog.save().click();
    await dialog.message('Notification text is required').waitFor();
    await expectAccessible(page, 'Send notification', dialog.root);
    await dialog.field('Notification text').fill('Payız kolleksiyasına 15% endirim!');
    await dialog.saveAndClose();
    await until(() => screen.tool('Payız kolleksiyası', 'Send notification').count()).toBe(0);
    const notifications = await (await api()).list<NotificationRow>('notification');
    expect(notifications.data.find((row) => row.campaignId === seeded.id)).toMatchObject({ type: 2, header: 'Payız kolleksiyası', text: 'Payız kolleksiyasına 15% endirim!' });
  });

  it('shows Campaign details with every field, three languages, both images and the assets; switches the status', async () => {
    await screen.tool('Payız kolleksiyası', 'View').click();
    const drawer = await openedDialog(page, 'Campaign details');
    for (const text of ['Autumn collection', 'Осенняя коллекция', 'Kapital Bank', 'Sent', 'Araz Market']) await drawer.getByText(text, { exact: true }).first().waitFor();
    await loadedImage(drawer.getByRole('img', { name: 'Background image: Payız kolleksiyası', exact: true }));
    await loadedImage(drawer.getByRole('img', { name: 'Image: Payız kolleksiyası', exact: true }));
    await expectAccessible(page, 'Campaign details', drawer);
    await shot(page, 'campaign-details');
    await drawer.getByRole('button', { name: 'Close' }).click();
    await screen.statusSwitch('Payız kolleksiyası').click();
    await until(() => stored('Payız kolleksiyası').then((row) => row?.isActive)).toBe(false);
    await screen.tool('Payız kolleksiyası', 'Edit').click();
    const form = await screen.form('Edit Campaign');
    expect(await form.field('Order').count(), 'no order while inactive').toBe(0);
    await form.cancel();
    await screen.statusSwitch('Payız kolleksiyası').click();
    await until(() => stored('Payız kolleksiyası').then((row) => row?.isActive)).toBe(true);
  });

  it('filters by partner, campaign name, discount and expire date, and exports the filtered Campaign.xlsx', async () => {
    await screen.showFilter();
    await screen.filterField('Campaign name').fill('qış');
    await screen.shows('Campaign name', [NEW_CAMPAIGN.nameAz]);
    await screen.filterField('Campaign name').fill('');
    await screen.filterField('Discount percent').fill('15');
    await screen.shows('Campaign name', ['Payız kolleksiyası']);
    await screen.filterField('Discount percent').fill('');
    await screen.filterField('Partner name').fill('Araz');
    await screen.filterField('Expire date').fill('2030-06-30');
    await screen.shows('Campaign name', [NEW_CAMPAIGN.nameAz]);
    await expectAccessible(page, '/campaigns with the filter');
    await shot(page, 'campaigns-filter');
    const exported = await downloads.export(page, screen.button('Export'));
    expect(exported.fileName).toBe('Campaign.xlsx');
    expect(exported.headerBold).toBe(true);
    expect(exported.data.map((row) => row[1])).toEqual([NEW_CAMPAIGN.nameAz]);
    expect(exported.data[0][3]).toBe('25');
    // The notification state in words, as the drawer says it (none was sent for this campaign).
    expect(exported.data[0][exported.header.indexOf('Notification status')]).toBe('Not sent');
  });

  it('deletes a campaign after the question', async () => {
    await screen.tool(NEW_CAMPAIGN.nameAz, 'Delete').click();
    const question = await openedDialog(page, 'Delete');
    await question.getByText(`Delete campaign ${NEW_CAMPAIGN.nameAz}?`).waitFor();
    await question.getByRole('button', { name: 'Yes' }).click();
    await until(() => stored(NEW_CAMPAIGN.nameAz)).toBeUndefined();
    await screen.shows('Campaign name', ['Payız kolleksiyası']);
  });

  it('works at 1024 px: the table fits its card (order and flags stay in the drawer and export), the side panel is accessible', async () => {
    await page.setViewportSize(TABLET);
    try {
      await screen.open();
      expect(await overflowsHorizontally(page)).toBe(false);
      const fit = await screen.table.evaluate((table) => ({ table: table.getBoundingClientRect().width, card: (table.parentElement as HTMLElement).clientWidth }));
      expect(fit.table).toBeLessThanOrEqual(fit.card);
      await shot(page, 'campaigns-1024');
      await screen.tool('Payız kolleksiyası', 'Edit').click();
      const form = await screen.form('Edit Campaign');
      await expectAccessible(page, 'Edit Campaign at 1024', form.root);
      expect(await reachable(page, form.save())).toBe(true);
      await form.cancel();
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it('works at 390 px: the list and the create side panel', async () => {
    await checkOnPhone(screen, 'Create Campaign', 'campaigns');
  });
});
