import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/axe';
import { DESKTOP, PHONE, shot, TABLET } from '../support/browser';
import { pngBytes } from '../support/images';
import { ListScreen, type ScreenSpec } from '../support/listScreen';
import { useSuite } from '../support/suite';
import { openedDialog, overflowsHorizontally, until } from '../support/ui';

const suite = useSuite();
const ASSETS: ScreenSpec = { path: '/assets', title: 'Asset list' };
const TRASH: ScreenSpec = { path: '/trash', title: 'Trash' };
const ADMIN_NAME = 'Aysel Mammadova';
const NAMES = ['Lənkəran Çay', 'Qəbələ Meyvə', 'Şəki Halva'];

describe('Trash: a deleted record is listed with who deleted it, restored as it was, or deleted for good', () => {
  let page: Page;

  beforeAll(async () => {
    const api = await suite.api();
    for (const [index, name] of NAMES.entries()) {
      await api.createAsset(
        { name, contactPerson: 'Nərgiz Babayeva', phoneNumber: '994501234567', email: `hr${index}@trash.test`, barcodePrefix: `TR${index}` },
        pngBytes(32, [30, 90, 160], [255, 255, 255]),
      );
    }
    page = await suite.signedIn(suite.admin, '/assets');
  });

  afterAll(async () => {
    await page?.context().close();
  });

  async function deleteAssets(assets: ListScreen, names: string[]) {
    await assets.open('?contactPerson=Nərgiz');
    for (const name of names) await assets.rowCheckbox(name).check();
    await assets.button('Delete').click();
    const confirm = await openedDialog(page, 'Delete');
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await confirm.waitFor({ state: 'detached' });
    for (const name of names) await assets.row(name).waitFor({ state: 'detached' });
  }

  it('lists what was deleted on the Assets screen, newest first, with who deleted it and when', async () => {
    const assets = new ListScreen(page, ASSETS);
    await deleteAssets(assets, NAMES);
    const trash = new ListScreen(page, TRASH);
    await trash.open();
    await page.getByRole('heading', { name: 'Trash', level: 1 }).waitFor();
    expect(await trash.headers()).toEqual(['', 'Record type', 'Name', 'Record ID', 'Deleted on', 'Deleted by', 'Tools']);
    await until(async () => (await trash.column('Name')).sort()).toEqual([...NAMES].sort());
    expect(new Set(await trash.column('Record type'))).toEqual(new Set(['Asset']));
    expect(new Set(await trash.column('Deleted by'))).toEqual(new Set([ADMIN_NAME]));
    await expectAccessible(page, '/trash at 1280');
    await shot(page, 'trash-1280');

    await trash.showFilter();
    await trash.filterField('Record type').selectOption({ label: 'Campaign' });
    await page.getByText('No information found').first().waitFor();
    await trash.filterField('Record type').selectOption({ label: 'Asset' });
    await until(async () => (await trash.column('Name')).length).toBe(3);
  });

  it('restores one record from its tools: it is back on the Assets screen with its image', async () => {
    const trash = new ListScreen(page, TRASH);
    await trash.open();
    await trash.tool('Şəki Halva', 'Restore').click();
    const confirm = await openedDialog(page, 'Restore');
    await confirm.getByText('Restore asset Şəki Halva?', { exact: true }).waitFor();
    await expectAccessible(page, 'the restore confirmation', confirm);
    await shot(page, 'trash-restore-confirm');
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByText('Asset Şəki Halva restored').waitFor();
    await trash.row('Şəki Halva').waitFor({ state: 'detached' });

    const assets = new ListScreen(page, ASSETS);
    await assets.open('?contactPerson=Nərgiz');
    await until(() => assets.column('Asset name')).toEqual(['Şəki Halva']);
    await until(() => assets.rowImage('Şəki Halva').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(32);
  });

  it('deletes the selected records for good after a warning that it cannot be undone', async () => {
    const trash = new ListScreen(page, TRASH);
    await trash.open();
    await trash.rowCheckbox('Lənkəran Çay').check();
    await trash.rowCheckbox('Qəbələ Meyvə').check();
    await page.getByText('2 selected').waitFor();
    await trash.button('Delete for good').click();
    const confirm = await openedDialog(page, 'Delete for good');
    await confirm.getByText('Delete 2 records for good?', { exact: true }).waitFor();
    await confirm.getByText('This cannot be undone', { exact: false }).waitFor();
    await shot(page, 'trash-purge-confirm');
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByText('2 records deleted for good').waitFor();
    await until(() => trash.column('Name')).toEqual([]);
  });

  it('fits and stays accessible at 1024 and 390 px', async () => {
    const assets = new ListScreen(page, ASSETS);
    await deleteAssets(assets, ['Şəki Halva']);
    const trash = new ListScreen(page, TRASH);
    for (const size of [TABLET, PHONE]) {
      await page.setViewportSize(size);
      await trash.open();
      await trash.row('Şəki Halva').waitFor();
      expect(await overflowsHorizontally(page), `${size.width} px`).toBe(false);
      await expectAccessible(page, `/trash at ${size.width}`);
      await shot(page, `trash-${size.width}`);
    }
    await page.setViewportSize(DESKTOP);
  });
});
