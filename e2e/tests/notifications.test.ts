import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/axe';
import { DESKTOP, PHONE, shot } from '../support/browser';
import { createCampaign, createCategory, type NotificationRow } from '../support/campaignsApi';
import { DownloadFolder } from '../support/exports';
import { PictureFolder, pngBytes } from '../support/images';
import { ListScreen, loadedImage, type ScreenSpec } from '../support/listScreen';
import { useSuite } from '../support/suite';
import { openedDialog, overflowsHorizontally, reachable, until } from '../support/ui';

const suite = useSuite();
const NOTIFICATIONS: ScreenSpec = { path: '/notifications', title: 'Notifications' };

describe('Notifications: create about a category and about a campaign, filter, drawer, edit, export, delete', () => {
  let page: Page;
  let screen: ListScreen;
  const pictures = new PictureFolder();
  const downloads = new DownloadFolder();
  const ids = { category: 0, campaign: 0 };

  const stored = async (header: string): Promise<NotificationRow | undefined> => {
    const api = await suite.api();
    const row = (await api.list<NotificationRow>('notification/filter', { Header: header })).data.find((notification) => notification.header === header);
    return row && api.call<NotificationRow>('GET', `notification/${row.id}`);
  };

  beforeAll(async () => {
    const api = await suite.api();
    const png = (r: number) => pngBytes(40, [r, 90, 160], [255, 255, 255]);
    const partner = await api.createPartner(
      {
        name: 'Araz Market',
        contactPersonFirstName: 'Tofiq',
        contactPersonLastName: 'Aliyev',
        phoneNumber: '994502001122',
        email: 'tofiq@araz.test',
        cities: [{ cityId: 1, address: 'Nizami 10', latitude: 40.3777, longitude: 49.892 }],
      },
      png(30),
    );
    ids.category = (await createCategory(api, { nameAz: 'Səyahət', nameEn: 'Travel', nameRu: 'Путешествия' }, png(60))).id;
    ids.campaign = (
      await createCampaign(api, { partnerId: partner.id, campaignCategoryId: ids.category, discountPercent: 20, nameAz: 'Qış turları', nameEn: 'Winter tours', nameRu: 'Зимние туры' }, png(90), png(120))
    ).id;
    const seeded = new FormData();
    seeded.append('header', 'Həftəsonu endirimi');
    seeded.append('text', 'Bütün turlara 10% endirim');
    seeded.append('type', '1');
    seeded.append('categoryId', String(ids.category));
    seeded.append('file', new Blob([new Uint8Array(png(200))], { type: 'image/png' }), 'weekend.png');
    await api.call('POST', 'notification', seeded);
    page = await suite.signedIn(suite.admin, NOTIFICATIONS.path);
    screen = new ListScreen(page, NOTIFICATIONS);
    await screen.loaded();
  });

  afterAll(() => {
    pictures.remove();
    downloads.remove();
  });

  beforeEach(() => screen.open());

  it('lists image, header and text with view, edit and delete', async () => {
    await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
    expect(await screen.headers()).toEqual(['', 'Image', 'Header', 'Text', 'Actions']);
    await screen.shows('Header', ['Həftəsonu endirimi']);
    expect(await loadedImage(screen.rowImage('Həftəsonu'))).toMatch(/cdn\/\w+\.png$/);
    expect(await screen.row('Həftəsonu').getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')))).toEqual(['View', 'Edit', 'Delete']);
    expect(await overflowsHorizontally(page)).toBe(false);
    await expectAccessible(page, '/notifications at 1280');
    await shot(page, 'notifications');
  });

  it('creates a notification about a category (type 1) and one about a campaign (type 2)', async () => {
    await screen.button('Create').click();
    let form = await screen.form('Create Notification');
    await form.save().click();
    for (const message of ['Header is required', 'Text is required', 'type is required']) await form.message(message).waitFor();
    await expectAccessible(page, 'Create Notification with messages', form.root);
    await shot(page, 'notification-create-validation');
    await form.field('Header').fill('Yeni kateqoriya: Səyahət');
    await form.field('Text').fill('Səyahət kateqoriyasında yeni kampaniyalar');
    await form.field('Type').selectOption({ label: 'Category' });
    await form.pick(form.field('Category'), 'Səy', 'Səyahət');
    await form.chooseImage(pictures.logo);
    await until(() => loadedImage(form.preview())).toMatch(/^blob:/);
    await form.saveAndClose();
    await until(() => stored('Yeni kateqoriya: Səyahət').then((row) => row && { type: row.type, categoryId: row.categoryId, campaignId: row.campaignId })).toEqual({ type: 1, categoryId: ids.category, campaignId: null });

    await screen.button('Create').click();
    form = await screen.form('Create Notification');
    await form.field('Header').fill('Qış turları başladı');
    await form.field('Text').fill('Qış turlarına 20% endirim');
    await form.field('Type').selectOption({ label: 'Campaign' });
    expect(await form.field('Category').count(), 'the category picker goes with type 1').toBe(0);
    await form.save().click();
    await form.message('Campaign is required').waitFor();
    await form.pick(form.field('Campaign'), 'Qış', 'Qış turları · Araz Market');
    await expectAccessible(page, 'Create Notification about a campaign', form.root);
    await shot(page, 'notification-create-campaign');
    await form.saveAndClose();
    await until(() => stored('Qış turları başladı').then((row) => row && { type: row.type, categoryId: row.categoryId, campaignId: row.campaignId })).toEqual({ type: 2, categoryId: null, campaignId: ids.campaign });
    await until(() => screen.column('Header')).toContain('Qış turları başladı');
  });

  it('filters by header, opens Notification details, edits header, text and image', async () => {
    await screen.showFilter();
    await screen.filterField('Header').fill('həftəsonu');
    await screen.shows('Header', ['Həftəsonu endirimi']);
    await expectAccessible(page, '/notifications with the filter');
    await screen.tool('Həftəsonu endirimi', 'View').click();
    const drawer = await openedDialog(page, 'Notification details');
    for (const text of ['Həftəsonu endirimi', 'Bütün turlara 10% endirim', 'Category', 'Səyahət']) await drawer.getByText(text, { exact: true }).waitFor();
    await expectAccessible(page, 'Notification details', drawer);
    await shot(page, 'notification-details');
    await drawer.getByRole('button', { name: 'Close' }).click();

    const before = await stored('Həftəsonu endirimi');
    await screen.tool('Həftəsonu endirimi', 'Edit').click();
    const form = await screen.form('Edit Notification');
    expect(await form.field('Type').count(), 'edit has header, text and image only').toBe(0);
    await form.field('Text').fill('Bütün turlara 15% endirim');
    await form.field('Header').fill('');
    await form.save().click();
    await form.message('Header is required').waitFor();
    await form.field('Header').fill('Həftəsonu endirimi');
    await expectAccessible(page, 'Edit Notification', form.root);
    await form.saveAndClose();
    const after = await stored('Həftəsonu endirimi');
    expect(after).toMatchObject({ text: 'Bütün turlara 15% endirim', type: 1, categoryId: ids.category, filePath: before?.filePath });
  });

  it('exports Notifications.xlsx and deletes after the question', async () => {
    const exported = await downloads.export(page, screen.button('Export'));
    expect(exported.fileName).toBe('Notifications.xlsx');
    expect(exported.headerBold).toBe(true);
    expect(exported.data.length).toBe(3);
    expect(exported.data.flat()).toContain('Qış turları başladı');
    await screen.tool('Qış turları başladı', 'Delete').click();
    const question = await openedDialog(page, 'Delete');
    await question.getByText('Delete notification Qış turları başladı?').waitFor();
    await question.getByRole('button', { name: 'Yes' }).click();
    await until(() => stored('Qış turları başladı')).toBeUndefined();
  });

  it('works at 390 px: the list and the create form', async () => {
    await page.setViewportSize(PHONE);
    try {
      await screen.open();
      expect(await overflowsHorizontally(page)).toBe(false);
      await shot(page, 'notifications-phone');
      await screen.button('Create').click();
      const form = await screen.form('Create Notification');
      expect(await reachable(page, form.save())).toBe(true);
      expect(await overflowsHorizontally(page)).toBe(false);
      await shot(page, 'notifications-create-phone');
      await form.cancel();
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });
});
