import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/axe';
import { shot } from '../support/browser';
import { createCampaign, createCategory, type CategoryRow } from '../support/campaignsApi';
import { PictureFolder, pngBytes } from '../support/images';
import { checkFitsDesktop, checkOnPhone, ListScreen, loadedImage, type ScreenSpec } from '../support/listScreen';
import { useSuite } from '../support/suite';
import { openedDialog, until } from '../support/ui';

const suite = useSuite();
const CATEGORY_NAMES: ScreenSpec = { path: '/categorynames', title: 'Category Names' };

describe('Category Names: names in the content language, create with three names and a photo, edit with the order, status, drawer, delete', () => {
  let page: Page;
  let screen: ListScreen;
  const pictures = new PictureFolder();

  const stored = async (nameAz: string): Promise<CategoryRow | undefined> => {
    const api = await suite.api();
    return (await api.list<CategoryRow>('campaign/category', { Name: nameAz, Take: 100 })).data.find((row) => row.nameAz === nameAz);
  };

  beforeAll(async () => {
    const api = await suite.api();
    await createCategory(api, { nameAz: 'Yemək', nameEn: 'Food', nameRu: 'Еда' }, pngBytes(40, [220, 38, 38], [255, 255, 255]));
    await createCategory(api, { nameAz: 'Geyim', nameEn: 'Clothes', nameRu: 'Одежда' }, pngBytes(40, [22, 163, 74], [255, 255, 255]));
    page = await suite.signedIn(suite.admin, CATEGORY_NAMES.path);
    screen = new ListScreen(page, CATEGORY_NAMES);
    await screen.loaded();
  });

  afterAll(() => pictures.remove());

  beforeEach(() => screen.open());

  it('lists photo, name, order and status, and shows the names in the content language chosen in the header', async () => {
    await page.getByRole('heading', { name: 'Category Names', level: 1 }).waitFor();
    expect(await screen.headers()).toEqual(['', 'Photo', 'Category name', 'Order', 'Status', 'Actions']);
    await screen.shows('Category name', ['Geyim', 'Yemək']);
    for (const name of ['Geyim', 'Yemək']) expect(await loadedImage(screen.rowImage(name))).toMatch(/^\/?cdn\/\w+\.png$/);
    const language = page.getByRole('combobox', { name: 'Content language' });
    await language.selectOption({ label: 'En' });
    await screen.shows('Category name', ['Clothes', 'Food']);
    await language.selectOption({ label: 'Ru' });
    await screen.shows('Category name', ['Одежда', 'Еда']);
    await shot(page, 'categories-ru');
    await language.selectOption({ label: 'Az' });
    await screen.shows('Category name', ['Geyim', 'Yemək']);
    await expectAccessible(page, '/categorynames at 1280');
    await checkFitsDesktop(screen, 'categories-1280');
  });

  it('creates a category: the three spec messages, then names and a photo', async () => {
    await screen.button('Create').click();
    const form = await screen.form('Create Category');
    await form.save().click();
    for (const message of ['Name Az is required', 'Name En is required', 'Name Ru is required']) await form.message(message).waitFor();
    expect(await form.field('Order').count(), 'the order is chosen on edit').toBe(0);
    await expectAccessible(page, 'Create Category with messages', form.root);
    await shot(page, 'category-create-validation');
    await form.field('Name Az').fill('Səyahət');
    await form.field('Name En').fill('Travel');
    await form.field('Name Ru').fill('Путешествия');
    await form.chooseImage(pictures.logo);
    await until(() => loadedImage(form.root.getByRole('img', { name: 'Image preview' }))).toMatch(/^blob:/);
    await form.saveAndClose();
    await until(() => screen.column('Category name')).toContain('Səyahət');
    const created = await stored('Səyahət');
    expect(created).toMatchObject({ nameEn: 'Travel', nameRu: 'Путешествия', order: 3, isActive: true });
    expect(created?.filePath).toMatch(/^\/?cdn\/\w+\.png$/);
  });

  it('edits a category: names loaded, moved to the first position, the photo kept', async () => {
    const before = await stored('Geyim');
    await screen.tool('Geyim', 'Edit').click();
    const form = await screen.form('Edit Category');
    expect(await form.field('Name En').inputValue()).toBe('Clothes');
    const order = form.field('Order');
    await until(() => order.locator('option').allInnerTexts()).toContain('1 · Yemək');
    await expectAccessible(page, 'Edit Category', form.root);
    await shot(page, 'category-edit');
    await form.field('Name En').fill('Clothing');
    await order.selectOption('1');
    await form.saveAndClose();
    await until(() => stored('Geyim').then((row) => row && { order: row.order, nameEn: row.nameEn })).toEqual({ order: 1, nameEn: 'Clothing' });
    expect((await stored('Geyim'))?.filePath).toBe(before?.filePath);
    expect((await stored('Yemək'))?.order, 'the others moved down').toBe(2);
  });

  it('switches the status through the list, opens the details drawer, and deletes after the question', async () => {
    await screen.statusSwitch('Yemək').click();
    await until(() => stored('Yemək').then((row) => row?.isActive)).toBe(false);
    await screen.tool('Yemək', 'View').click();
    const drawer = await openedDialog(page, 'Category details');
    for (const text of ['Food', 'Еда', 'Inactive']) await drawer.getByText(text, { exact: true }).waitFor();
    await expectAccessible(page, 'Category details', drawer);
    await shot(page, 'category-details');
    await drawer.getByRole('button', { name: 'Close' }).click();

    const api = await suite.api();
    const spare = await createCategory(api, { nameAz: 'Silinəcək', nameEn: 'To delete', nameRu: 'Удалить' });
    await screen.open();
    await screen.tool('Silinəcək', 'Delete').click();
    const question = await openedDialog(page, 'Delete');
    await question.getByText('Delete category Silinəcək?').waitFor();
    await expectAccessible(page, 'Delete category', question);
    await question.getByRole('button', { name: 'Yes' }).click();
    await until(() => stored('Silinəcək')).toBeUndefined();
    expect(spare.id).toBeGreaterThan(0);
  });

  it('refuses to delete a category that still has campaigns, with the server\'s message in the question', async () => {
    const api = await suite.api();
    const partner = await api.createPartner(
      {
        name: 'Araz Market',
        contactPersonFirstName: 'Tofiq',
        contactPersonLastName: 'Aliyev',
        phoneNumber: '994502001122',
        email: 'tofiq@araz.test',
        cities: [{ cityId: 1, address: 'Nizami 10', latitude: 40.3777, longitude: 49.892 }],
      },
    );
    const food = await stored('Yemək');
    const png = pngBytes(24, [10, 10, 10], [250, 250, 250]);
    await createCampaign(api, { partnerId: partner.id, campaignCategoryId: food!.id, discountPercent: 5, nameAz: 'Plov günü', nameEn: 'Plov day', nameRu: 'День плова' }, png, png);
    await screen.open();
    await screen.tool('Yemək', 'Delete').click();
    const question = await openedDialog(page, 'Delete');
    await question.getByRole('button', { name: 'Yes' }).click();
    await question.getByRole('alert').getByText(/cannot be deleted/).waitFor();
    await shot(page, 'category-delete-refused');
    await question.getByRole('button', { name: 'No' }).click();
    expect(await stored('Yemək')).toBeDefined();
  });

  it('works at 390 px: the list and the create form', async () => {
    await checkOnPhone(screen, 'Create Category', 'categories');
  });
});
