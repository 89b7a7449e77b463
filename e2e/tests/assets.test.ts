import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AssetRow, NewAsset } from '../support/api';
import { shot } from '../support/browser';
import { DownloadFolder } from '../support/exports';
import { PictureFolder, pngBytes } from '../support/images';
import { ASSETS, checkFitsDesktop, checkOnPhone, ListScreen, loadedImage } from '../support/listScreen';
import { useSuite } from '../support/suite';
import { openedDialog, pathOf, until } from '../support/ui';

const suite = useSuite();

/** Seeded through the API, oldest first; each has its own picture. */
const SEEDED: NewAsset[] = [
  { name: 'Absheron Foods', contactPerson: 'Rauf Aliyev', phoneNumber: '994502223344', email: 'rauf@absheron.test', barcodePrefix: 'ABF' },
  { name: 'Caspian Logistics', contactPerson: 'Leyla Quliyeva', phoneNumber: '994513334455', email: 'leyla@caspian.test', barcodePrefix: 'CL1' },
  { name: 'Ganja Textiles', contactPerson: 'Rauf Mammadov', phoneNumber: '994704445566', email: 'info@ganjatex.test', barcodePrefix: 'GT' },
];

const NEW_ASSET = {
  name: 'Shirvan Pharmacy',
  contactPerson: 'Nermin Sadiqova',
  email: 'nermin@shirvan.test',
  barcodePrefix: 'SP7',
};

describe('Assets: list, create with an image, edit, drawer, status, filter, export, delete', () => {
  let page: Page;
  let assets: ListScreen;
  const pictures = new PictureFolder();
  const downloads = new DownloadFolder();

  /** The asset as the API has it now. */
  const stored = async (name: string): Promise<AssetRow | undefined> => {
    const { data } = await (await suite.api()).list<AssetRow>('asset/filter', { Name: name });
    return data.find((asset) => asset.name === name);
  };

  /** The bytes the server serves for an image address the page shows. */
  const served = async (src: string): Promise<Buffer> => {
    const response = await fetch(new URL(src, suite.server.baseUrl));
    expect(response.status, `GET ${src}`).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  };

  beforeAll(async () => {
    const api = await suite.api();
    for (const [index, asset] of SEEDED.entries()) await api.createAsset(asset, pngBytes(32 + index * 8, [30 + index * 60, 64, 200], [240, 240, 240]));
    page = await suite.signedIn(suite.admin, ASSETS.path);
    assets = new ListScreen(page, ASSETS);
    await assets.loaded();
  });

  afterAll(() => {
    pictures.remove();
    downloads.remove();
  });

  // Every test starts on the freshly loaded list, so one failure does not carry over.
  beforeEach(() => assets.open());

  it("shows 'Asset list' with the spec columns, newest first, each row with its picture", async () => {
    await page.getByRole('heading', { name: 'Asset list', level: 1 }).waitFor();
    expect(await assets.headers()).toEqual(['', 'Image', 'Asset name', 'Primary contact person name', 'Phone number', 'Email', 'Status', 'Actions']);
    await assets.shows('Asset name', ['Ganja Textiles', 'Caspian Logistics', 'Absheron Foods']);
    expect(await assets.row('Caspian Logistics').innerText()).toContain('+994 51 333 44 55');
    for (const asset of SEEDED) {
      const src = await loadedImage(assets.rowImage(asset.name));
      expect(src).toMatch(/^\/cdn\/\w+\.png$/);
    }
    // The image column does not sort; the others do.
    expect(await assets.sortBy('Image').count()).toBe(0);
    await assets.sortBy('Asset name').click();
    await assets.shows('Asset name', ['Absheron Foods', 'Caspian Logistics', 'Ganja Textiles']);
    await assets.sortBy('Primary contact person name').click();
    await until(() => assets.column('Primary contact person name')).toEqual(['Leyla Quliyeva', 'Rauf Aliyev', 'Rauf Mammadov']);
    await assets.open();
    await shot(page, 'assets');
  });

  it('fits a 1280 px screen with long e-mails and Azerbaijani names: every column visible, no sideways scroll', async () => {
    const api = await suite.api();
    const long = await api.createAsset(
      {
        name: 'Şirvanşahlar Gözəllik və Sağlamlıq Mərkəzi',
        contactPerson: 'Gülnarə Məmmədova-Hüseynzadə',
        phoneNumber: '994553003344',
        email: 'gulnara.mammadova-huseynzada@sirvansahlar.test',
        barcodePrefix: 'SGM',
      },
      pngBytes(24, [200, 120, 30], [255, 255, 255]),
    );
    try {
      await checkFitsDesktop(assets, 'assets-1280');
    } finally {
      await api.call('DELETE', 'asset', { id: [long.id] });
    }
  });

  it('creates an asset: the spec messages, the barcode rule, non-images refused, then success with the picture', async () => {
    await assets.button('Create').click();
    const form = await assets.form('Create Asset');
    await form.save().click();
    for (const message of ['Name is required', 'Contact person is required', 'Phone number is required', 'Email is required', 'Barcode is required', 'File is required']) {
      await form.message(message).waitFor();
    }
    await shot(page, 'asset-create-validation');

    await form.field('Asset name').fill(NEW_ASSET.name);
    await form.field('Primary contact person name').fill(NEW_ASSET.contactPerson);
    await form.phone('055', '7654321');
    expect(await form.field('Phone number').inputValue()).toBe('765 43 21');
    await form.field('Email').fill('nermin.shirvan');
    await form.message('Wrong email format. E.g. name@example.com').waitFor();
    await form.field('Email').fill(NEW_ASSET.email);
    for (const wrong of ['SP77', 'S-7']) {
      await form.field('Barcode prefix').fill(wrong);
      await form.message('Barcode must consist of max 3 letter or number').waitFor();
    }
    await form.field('Barcode prefix').fill(NEW_ASSET.barcodePrefix);
    await until(() => form.message('Barcode must consist of max 3 letter or number').count()).toBe(0);

    // A text file is refused by the picker itself; nothing is chosen.
    await form.chooseImage(pictures.textFile);
    await form.message('Only PNG, JPEG, WebP or GIF images are accepted.').waitFor();
    expect(await form.message('File is required').isVisible()).toBe(true);

    // A text file renamed to .png passes the type check by its name, but the browser cannot decode
    // it: it is refused when chosen, not on Save (the server checks the bytes too, in its own tests).
    await form.chooseImage(pictures.fakePng);
    await until(() => form.imageInput().getAttribute('aria-describedby')).toBeTruthy();
    await until(() => form.message('Only PNG, JPEG, WebP or GIF images are accepted.').count()).toBe(1);
    expect(await form.root.getByText('notes.png').count(), 'nothing chosen').toBe(0);
    expect(await form.preview().count(), 'no preview').toBe(0);
    await form.save().click();
    expect(await form.message('File is required').isVisible()).toBe(true);
    expect(await form.alert().count()).toBe(0);
    await until(() => form.save().isEnabled()).toBe(true);
    await shot(page, 'asset-create-not-an-image');
    expect(await stored(NEW_ASSET.name)).toBeUndefined();

    // A real PNG: previewed, and the refusal is gone from the form (alert and field) before Save.
    await form.chooseImage(pictures.logo);
    await form.root.getByText('logo.png').waitFor();
    expect(await loadedImage(form.preview())).toMatch(/^blob:/);
    await until(() => form.alert().count()).toBe(0);
    expect(await form.message('Only PNG, JPEG, WebP or GIF images are accepted.').count()).toBe(0);
    await shot(page, 'asset-create-image');
    await form.saveAndClose();

    await until(() => assets.column('Asset name').then((names) => names[0])).toBe(NEW_ASSET.name);
    const src = await loadedImage(assets.rowImage(NEW_ASSET.name));
    expect((await served(src)).equals(readFileSync(pictures.logo)), 'the row shows the uploaded picture').toBe(true);
    expect(await assets.row(NEW_ASSET.name).innerText()).toContain('+994 55 765 43 21');
    expect(await stored(NEW_ASSET.name)).toMatchObject({
      name: NEW_ASSET.name,
      contactPerson: NEW_ASSET.contactPerson,
      contactPersonEmail: NEW_ASSET.email,
      contactPersonPhoneNumber: '994557654321',
      barcodePrefix: NEW_ASSET.barcodePrefix,
      isActive: true,
    });

    // The form is empty again for the next asset.
    await assets.button('Create').click();
    const again = await assets.form('Create Asset');
    expect(await again.field('Asset name').inputValue()).toBe('');
    await again.root.getByText('No image selected').waitFor();
    await again.cancel();
  });

  it('edits an asset without choosing an image: the values load, the stored picture stays', async () => {
    const before = await stored(NEW_ASSET.name);
    await assets.tool(NEW_ASSET.name, 'Edit').click();
    const form = await assets.form('Edit Asset');
    await until(() => form.field('Asset name').inputValue()).toBe(NEW_ASSET.name);
    expect(await form.field('Primary contact person name').inputValue()).toBe(NEW_ASSET.contactPerson);
    expect(await form.field('Phone number').inputValue()).toBe('765 43 21');
    expect(await form.root.getByLabel('Operator code').inputValue()).toBe('055');
    expect(await form.field('Email').inputValue()).toBe(NEW_ASSET.email);
    expect(await form.field('Barcode prefix').count(), 'the barcode prefix is fixed once made').toBe(0);
    expect(await loadedImage(form.preview())).toBe(`/${before?.filePath}`);
    expect(await form.root.getByRole('button', { name: 'Remove' }).count()).toBe(0);
    await shot(page, 'asset-edit');

    await form.field('Asset name').fill('');
    await form.save().click();
    await form.message('Name is required').waitFor();
    await form.field('Asset name').fill(NEW_ASSET.name);
    await form.field('Primary contact person name').fill('Nermin Aliyeva');
    await form.saveAndClose();
    await until(() => assets.row(NEW_ASSET.name).innerText()).toContain('Nermin Aliyeva');
    const after = await stored(NEW_ASSET.name);
    expect(after?.contactPerson).toBe('Nermin Aliyeva');
    expect(after?.filePath, 'no new image, the old one stays').toBe(before?.filePath);
    expect(after?.barcodePrefix).toBe(NEW_ASSET.barcodePrefix);
    NEW_ASSET.contactPerson = 'Nermin Aliyeva';
  });

  it('changes the image in the edit dialog: the preview, Remove brings the stored one back, Save stores the new one', async () => {
    const before = await stored(NEW_ASSET.name);
    await assets.tool(NEW_ASSET.name, 'Edit').click();
    const form = await assets.form('Edit Asset');
    const storedSrc = await loadedImage(form.preview());
    expect(storedSrc).toBe(`/${before?.filePath}`);
    await form.root.getByText('Change image').waitFor();

    await form.chooseImage(pictures.otherLogo);
    await until(() => loadedImage(form.preview())).toMatch(/^blob:/);
    await form.root.getByText('other-logo.png').waitFor();
    await shot(page, 'asset-edit-image');
    await form.root.getByRole('button', { name: 'Remove' }).click();
    await until(() => loadedImage(form.preview())).toBe(storedSrc);
    expect(await form.root.getByText('other-logo.png').count()).toBe(0);

    await form.chooseImage(pictures.otherLogo);
    await until(() => loadedImage(form.preview())).toMatch(/^blob:/);
    await form.saveAndClose();
    const after = await stored(NEW_ASSET.name);
    expect(after?.filePath).not.toBe(before?.filePath);
    await until(() => loadedImage(assets.rowImage(NEW_ASSET.name))).toBe(`/${after?.filePath}`);
    expect((await served(`/${after?.filePath}`)).equals(readFileSync(pictures.otherLogo))).toBe(true);
  });

  it("opens the 400 px 'Asset details' drawer with the picture and every field", async () => {
    const asset = await stored(NEW_ASSET.name);
    await assets.tool(NEW_ASSET.name, 'View').click();
    const drawer = await openedDialog(page, 'Asset details');
    const details = drawer.locator('dl');
    await until(() => details.innerText()).toContain('Created');
    const text = await details.innerText();
    for (const expected of ['Asset name', NEW_ASSET.name, 'Primary contact person name', NEW_ASSET.contactPerson, '+994 55 765 43 21', NEW_ASSET.email, 'Barcode prefix', NEW_ASSET.barcodePrefix, 'Active']) {
      expect(text).toContain(expected);
    }
    expect(await loadedImage(drawer.getByRole('img', { name: NEW_ASSET.name }))).toBe(`/${asset?.filePath}`);
    const panel = await drawer.locator('[id^="headlessui-dialog-panel"]').boundingBox();
    expect(panel?.width).toBe(400);
    await shot(page, 'asset-details');
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'detached' });
  });

  it('toggles the status; the list, a reload and the API agree', async () => {
    const toggle = assets.statusSwitch(NEW_ASSET.name);
    expect(await toggle.getAttribute('aria-label')).toBe(`Change status: ${NEW_ASSET.name}`);
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    await until(() => assets.row(NEW_ASSET.name).innerText()).toContain('Inactive');
    expect((await stored(NEW_ASSET.name))?.isActive).toBe(false);
    await page.reload();
    await until(() => assets.statusSwitch(NEW_ASSET.name).getAttribute('aria-checked')).toBe('false');
    await assets.statusSwitch(NEW_ASSET.name).click();
    await until(() => assets.statusSwitch(NEW_ASSET.name).getAttribute('aria-checked')).toBe('true');
    expect((await stored(NEW_ASSET.name))?.isActive).toBe(true);
  });

  it('filters by name, contact person, phone number and e-mail (the spec query names)', async () => {
    await assets.showFilter();
    expect(await assets.filterPanel.getByRole('searchbox').count()).toBe(4);
    const cases: [label: string, typed: string, param: string, expected: string[]][] = [
      ['Name', 'an', 'Name', ['Shirvan Pharmacy', 'Ganja Textiles', 'Caspian Logistics']],
      ['Contact person', 'Rauf', 'ContactPerson', ['Ganja Textiles', 'Absheron Foods']],
      ['Phone number', '3334455', 'ContactPersonPhoneNumber', ['Caspian Logistics']],
      ['Email', 'shirvan', 'ContactPersonEmail', ['Shirvan Pharmacy']],
    ];
    for (const [label, typed, param, expected] of cases) {
      const field = assets.filterField(label);
      const [request] = await Promise.all([
        page.waitForRequest((r) => new URL(r.url()).pathname === '/api/asset/filter' && new URL(r.url()).searchParams.get(param) === typed),
        field.fill(typed),
      ]);
      expect(new URL(request.url()).searchParams.get('Skip')).toBe('0');
      await assets.shows('Asset name', expected);
      await field.fill('');
      await assets.shows('Asset name', ['Shirvan Pharmacy', 'Ganja Textiles', 'Caspian Logistics', 'Absheron Foods']);
    }
    await assets.filterField('Name').fill('zzz');
    await until(() => assets.message()).toBe('No information found');
    await shot(page, 'assets-filter');
    await assets.filterField('Name').fill('');
    await assets.shows('Asset name', ['Shirvan Pharmacy', 'Ganja Textiles', 'Caspian Logistics', 'Absheron Foods']);
    expect(pathOf(page)).toBe('/assets');
  });

  it('exports Assets.xlsx with every asset, and only the filtered ones under a filter', async () => {
    const all = await downloads.export(page, assets.button('Export'));
    expect(all.fileName).toBe('Assets.xlsx');
    expect(all.header).toEqual(['Asset name', 'Primary contact person name', 'Phone number', 'Email', 'Barcode prefix', 'Active']);
    expect(all.headerBold).toBe(true);
    expect(all.data.map((row) => row[0]).sort()).toEqual(['Absheron Foods', 'Caspian Logistics', 'Ganja Textiles', 'Shirvan Pharmacy']);
    expect(all.data.find((row) => row[0] === NEW_ASSET.name)?.slice(0, 5)).toEqual([
      NEW_ASSET.name,
      NEW_ASSET.contactPerson,
      '+994 55 765 43 21',
      NEW_ASSET.email,
      NEW_ASSET.barcodePrefix,
    ]);

    await assets.open('?contactPerson=Rauf');
    await assets.shows('Asset name', ['Ganja Textiles', 'Absheron Foods']);
    const filtered = await downloads.export(page, assets.button('Export'));
    expect(filtered.data.map((row) => row[0]).sort()).toEqual(['Absheron Foods', 'Ganja Textiles']);
  });

  it('works on a phone (390 px): no sideways page scroll, the create form reachable top to bottom', async () => {
    await checkOnPhone(assets, 'Create Asset', 'assets');
  });

  it("deletes the selected assets after 'Are you sure to delete?' (No keeps them, Yes deletes)", async () => {
    await assets.rowCheckbox('Absheron Foods').check();
    await assets.rowCheckbox('Ganja Textiles').check();
    await assets.toolbar.getByText('2 selected').waitFor();
    for (const hidden of ['Create', 'Export', 'Show filter']) expect(await assets.button(hidden).count(), `${hidden} while selecting`).toBe(0);
    await shot(page, 'assets-selected');

    await assets.button('Delete').click();
    let confirm = await openedDialog(page, 'Delete');
    expect(await confirm.getByText('Are you sure to delete?').isVisible()).toBe(true);
    await shot(page, 'assets-delete-confirm');
    await confirm.getByRole('button', { name: 'No' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await stored('Absheron Foods')).toBeDefined();

    await assets.button('Delete').click();
    confirm = await openedDialog(page, 'Delete');
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await confirm.waitFor({ state: 'detached' });
    await assets.shows('Asset name', ['Shirvan Pharmacy', 'Caspian Logistics']);
    expect(await stored('Absheron Foods')).toBeUndefined();
    expect(await stored('Ganja Textiles')).toBeUndefined();
    await assets.button('Create').waitFor();
  });
});
