import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HrAccountRow } from '../support/api';
import { shot } from '../support/browser';
import { DownloadFolder } from '../support/exports';
import { pngBytes } from '../support/images';
import { checkFitsDesktop, checkOnPhone, HR_ACCOUNTS, ListScreen } from '../support/listScreen';
import { useSuite } from '../support/suite';
import { openedDialog, reachable, until } from '../support/ui';

const suite = useSuite();

const ASSET_NAMES = ['Absheron Foods', 'Caspian Logistics', 'Ganja Textiles'];
const NEW_ACCOUNT = { firstName: 'Aytan', lastName: 'Nasibova', email: 'aytan.nasibova@caspian.test', password: 'hrportal2026' };
const LETTER_AND_DIGIT = 'Password must consist of a letter, a number.';

/** yyyy-MM-dd of the UTC day `offset` days from today. */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
/** The calendar day after a yyyy-MM-dd day. */
const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe('HR accounts: list, create with the asset picker and switches, edit, drawer, passwords, QR code, filter, export, delete', () => {
  let page: Page;
  let hr: ListScreen;
  const downloads = new DownloadFolder();
  const assetIds: Record<string, number> = {};

  const stored = async (email: string): Promise<HrAccountRow | undefined> => {
    const api = await suite.api();
    const row = (await api.list<HrAccountRow>('humanResource')).data.find((account) => account.email === email);
    return row && api.call<HrAccountRow>('GET', `humanResource/${row.id}`);
  };

  beforeAll(async () => {
    const api = await suite.api();
    for (const [index, name] of ASSET_NAMES.entries()) {
      const slug = name.split(' ')[0].toLowerCase();
      const asset = await api.createAsset(
        { name, contactPerson: 'Office Manager', phoneNumber: `99450${1000000 + index}`, email: `office@${slug}.test`, barcodePrefix: slug.slice(0, 3) },
        pngBytes(16, [80, 80, 200], [255, 255, 255]),
      );
      assetIds[name] = asset.id;
    }
    await api.createHrAccount({ assetId: assetIds['Caspian Logistics'], firstName: 'Kamran', lastName: 'Aliyev', email: 'kamran.aliyev@caspian.test', phone: '994512223344', password: 'hrportal2025' });
    await api.createHrAccount({ assetId: assetIds['Absheron Foods'], firstName: 'Sevda', lastName: 'Huseynova', email: 'sevda.huseynova@absheron.test', phone: '994703334455', password: 'hrportal2025', isMfaActive: true });
    page = await suite.signedIn(suite.admin, HR_ACCOUNTS.path);
    hr = new ListScreen(page, HR_ACCOUNTS);
    await hr.loaded();
  });

  afterAll(() => downloads.remove());

  // Every test starts on the freshly loaded list, so one failure does not carry over.
  beforeEach(() => hr.open());

  it("shows 'Hr Account' with the HR columns, newest first", async () => {
    await page.getByRole('heading', { name: 'Hr Account', level: 1 }).waitFor();
    expect(await hr.headers()).toEqual(['', 'Asset name', 'Full name', 'Email', 'Phone number', 'Status', 'Actions']);
    await hr.shows('Full name', ['Sevda Huseynova', 'Kamran Aliyev']);
    expect(await hr.column('Asset name')).toEqual(['Absheron Foods', 'Caspian Logistics']);
    expect(await hr.row('Kamran Aliyev').innerText()).toContain('+994 51 222 33 44');
    for (const tool of ['View', 'Edit', 'Change Password', 'QR code', 'Delete']) expect(await hr.tool('Kamran Aliyev', tool).count(), tool).toBe(1);
    await shot(page, 'hr-accounts');
  });

  it('fits a 1280 px screen with long e-mails and Azerbaijani names: every column visible, no sideways scroll', async () => {
    const api = await suite.api();
    const long = await api.createHrAccount({
      assetId: assetIds['Caspian Logistics'],
      firstName: 'Gülnarə-Məleykə',
      lastName: 'Məmmədova-Hüseynzadə',
      email: 'gulnara.mammadova-huseynzada@caspianlogistics.test',
      phone: '994553003344',
      password: 'hrportal2025',
    });
    try {
      await checkFitsDesktop(hr, 'hr-accounts-1280');
    } finally {
      await api.call('DELETE', 'humanResource', { id: [long.id] });
    }
  });

  it('creates an HR account: the spec messages, password rules and confirmation, the asset picker and both switches', async () => {
    await hr.button('Create').click();
    const form = await hr.form('Create HR Account');
    await form.save().click();
    for (const message of ['Choose an asset', 'First name is required', 'Last name is required', 'Email is required', 'Phone is required', 'Password is required', 'Confirm Password is required']) {
      await form.message(message).waitFor();
    }
    expect(await form.field('Otp login').isChecked()).toBe(false);
    expect(await form.field('See Employee Id').isChecked()).toBe(false);
    // The form is taller than the window: scrolling reaches both its title (and close button) and Save.
    expect(await reachable(page, form.root.getByRole('heading', { name: 'Create HR Account' })), 'the title can be scrolled to').toBe(true);
    expect(await reachable(page, form.root.getByRole('button', { name: 'Close' })), 'the close button can be scrolled to').toBe(true);
    expect(await reachable(page, form.save()), 'Save can be scrolled to').toBe(true);
    await form.root.getByRole('heading', { name: 'Create HR Account' }).scrollIntoViewIfNeeded();
    await shot(page, 'hr-create-validation');

    // The asset picker searches the assets by name.
    const asset = form.field('Asset name');
    await asset.click();
    await until(() => page.getByRole('listbox').getByRole('option').allInnerTexts()).toEqual(ASSET_NAMES);
    await asset.fill('casp');
    await until(() => page.getByRole('listbox').getByRole('option').allInnerTexts()).toEqual(['Caspian Logistics']);
    await shot(page, 'hr-create-asset-picker');
    await page.getByRole('listbox').getByRole('option', { name: 'Caspian Logistics' }).click();
    await until(() => asset.inputValue()).toBe('Caspian Logistics');
    await until(() => form.message('Choose an asset').count()).toBe(0);

    await form.field('First name').fill(NEW_ACCOUNT.firstName);
    await form.field('Last name').fill(NEW_ACCOUNT.lastName);
    await form.field('Email').fill(NEW_ACCOUNT.email);
    await form.phone('099', '5556677');
    await form.field('Password').fill('password');
    await form.field('Confirm Password').fill('passwordx');
    await until(() => form.message(LETTER_AND_DIGIT).count()).toBe(2);
    await form.field('Password').fill(NEW_ACCOUNT.password);
    await form.field('Confirm Password').fill('hrportal2027');
    await form.message('Both password need to be the same').waitFor();
    await form.field('Confirm Password').fill(NEW_ACCOUNT.password);
    await until(() => form.message('Both password need to be the same').count()).toBe(0);
    await form.field('Otp login').check();
    await form.field('See Employee Id').check();
    await shot(page, 'hr-create-filled');
    const [request] = await Promise.all([
      page.waitForRequest((r) => new URL(r.url()).pathname === '/api/humanResource' && r.method() === 'POST'),
      form.saveAndClose(),
    ]);
    expect(request.postDataJSON()).not.toHaveProperty('confirmPassword');
    expect(request.postDataJSON()).toMatchObject({
      assetId: assetIds['Caspian Logistics'],
      ...NEW_ACCOUNT,
      phone: '994995556677',
      isMfaActive: true,
      isEmployeeSeen: true,
    });

    await until(() => hr.column('Full name').then((names) => names[0])).toBe('Aytan Nasibova');
    expect(await hr.row(NEW_ACCOUNT.email).innerText()).toContain('Caspian Logistics');
    expect(await stored(NEW_ACCOUNT.email)).toMatchObject({
      assetId: assetIds['Caspian Logistics'],
      firstName: NEW_ACCOUNT.firstName,
      lastName: NEW_ACCOUNT.lastName,
      phone: '994995556677',
      isActive: true,
      isMfaActive: true,
      isEmployeeSeen: true,
    });
  });

  it("shows the server's answer inside the form for a taken e-mail, and enables Save again", async () => {
    await hr.button('Create').click();
    const form = await hr.form('Create HR Account');
    await form.pick(form.field('Asset name'), 'gan', 'Ganja Textiles');
    await form.field('First name').fill('Second');
    await form.field('Last name').fill('Kamran');
    await form.field('Email').fill('kamran.aliyev@caspian.test');
    await form.phone('050', '1112233');
    await form.field('Password').fill('hrportal2026');
    await form.field('Confirm Password').fill('hrportal2026');
    await form.save().click();
    // The 409 names errors.email: the message shows once, at the Email field, not also in an alert.
    await until(() => form.field('Email').getAttribute('aria-invalid')).toBe('true');
    expect(await form.message('A user with this e-mail already exists.').count()).toBe(1);
    expect(await form.alert().count()).toBe(0);
    await until(() => form.field('Email').evaluate((input) => (input as HTMLInputElement).labels?.[0]?.parentElement?.textContent ?? '')).toContain(
      'A user with this e-mail already exists.',
    );
    await until(() => form.save().isEnabled()).toBe(true);
    await shot(page, 'hr-create-server-error');
    // Changing the e-mail takes the refusal away (alert and field) before the next Save.
    await form.field('Email').fill('second.kamran@caspian.test');
    await until(() => form.alert().count()).toBe(0);
    expect(await form.message('A user with this e-mail already exists.').count()).toBe(0);
    expect(await form.field('Email').getAttribute('aria-invalid')).not.toBe('true');
    await form.cancel();
  });

  it('edits an HR account: asset, names and switches load; a new asset and switch state are saved', async () => {
    await hr.tool(NEW_ACCOUNT.email, 'Edit').click();
    const form = await hr.form('Edit HR Account');
    await until(() => form.field('Asset name').inputValue()).toBe('Caspian Logistics');
    expect(await form.field('First name').inputValue()).toBe(NEW_ACCOUNT.firstName);
    expect(await form.field('Email').inputValue()).toBe(NEW_ACCOUNT.email);
    expect(await form.field('Phone number').inputValue()).toBe('555 66 77');
    expect(await form.root.getByLabel('Operator code').inputValue()).toBe('099');
    expect(await form.field('Otp login').isChecked()).toBe(true);
    expect(await form.field('See Employee Id').isChecked()).toBe(true);
    expect(await form.field('Password').count(), 'no password on edit').toBe(0);
    await shot(page, 'hr-edit');

    await form.field('Last name').fill('');
    await form.save().click();
    await form.message('Last name is required').waitFor();
    await form.field('Last name').fill('Nasibli');
    await form.pick(form.field('Asset name'), 'absh', 'Absheron Foods');
    await form.field('See Employee Id').uncheck();
    await form.saveAndClose();
    await until(() => hr.row(NEW_ACCOUNT.email).innerText()).toContain('Aytan Nasibli');
    expect(await hr.row(NEW_ACCOUNT.email).innerText()).toContain('Absheron Foods');
    expect(await stored(NEW_ACCOUNT.email)).toMatchObject({ assetId: assetIds['Absheron Foods'], lastName: 'Nasibli', isMfaActive: true, isEmployeeSeen: false });
    NEW_ACCOUNT.lastName = 'Nasibli';
  });

  it("opens the 400 px 'Human resource details' drawer with the account's data and switches", async () => {
    await hr.tool(NEW_ACCOUNT.email, 'View').click();
    const drawer = await openedDialog(page, 'Human resource details');
    const details = drawer.locator('dl');
    await until(() => details.innerText()).toContain('Created');
    const pairs = await details.locator('div').evaluateAll((items) => items.map((item) => [item.querySelector('dt')?.textContent, item.querySelector('dd')?.textContent]));
    expect(Object.fromEntries(pairs)).toMatchObject({
      'Asset name': 'Absheron Foods',
      'First name': NEW_ACCOUNT.firstName,
      'Last name': NEW_ACCOUNT.lastName,
      Email: NEW_ACCOUNT.email,
      'Phone number': '+994 99 555 66 77',
      'Otp login': 'Yes',
      'See Employee Id': 'No',
      Status: 'Active',
    });
    const panel = await drawer.locator('[id^="headlessui-dialog-panel"]').boundingBox();
    expect(panel?.width).toBe(400);
    await shot(page, 'hr-details');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
  });

  it('toggles the status; the list and the API agree', async () => {
    const toggle = hr.statusSwitch(NEW_ACCOUNT.email);
    expect(await toggle.getAttribute('aria-label')).toBe(`Change status: ${NEW_ACCOUNT.firstName} ${NEW_ACCOUNT.lastName}`);
    await toggle.click();
    await until(() => hr.row(NEW_ACCOUNT.email).innerText()).toContain('Inactive');
    expect((await stored(NEW_ACCOUNT.email))?.isActive).toBe(false);
    await toggle.click();
    await until(() => toggle.getAttribute('aria-checked')).toBe('true');
    expect((await stored(NEW_ACCOUNT.email))?.isActive).toBe(true);
  });

  it("changes an account's password as an admin, with the rule and the confirmation", async () => {
    const account = await stored(NEW_ACCOUNT.email);
    await hr.tool(NEW_ACCOUNT.email, 'Change Password').click();
    const form = await hr.form('Change Password');
    await form.save().click();
    await form.message('Password is required').waitFor();
    await form.message('Confirm Password is required').waitFor();
    await form.field('New password').fill('onlyletters');
    await form.message('Password must consist of a number.').waitFor();
    await form.field('New password').fill('newportal2026');
    await form.field('Confirm new password').fill('newportal2027');
    await form.message('Both password need to be the same').waitFor();
    await shot(page, 'hr-change-password');
    await form.field('Confirm new password').fill('newportal2026');
    const [response] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/humanResource/changePasswordByAdmin'),
      form.saveAndClose(),
    ]);
    expect(response.status()).toBe(200);
    expect(response.request().postDataJSON()).toEqual({ id: account?.id, password: 'newportal2026' });
  });

  it("shows the account's authenticator QR code (its sign-in user's)", async () => {
    const account = await stored(NEW_ACCOUNT.email);
    const [request] = await Promise.all([
      page.waitForRequest((r) => new URL(r.url()).pathname === '/api/user/get-qr'),
      hr.tool(NEW_ACCOUNT.email, 'QR code').click(),
    ]);
    expect(new URL(request.url()).searchParams.get('id')).toBe(String(account?.userId));
    const qrDialog = await openedDialog(page, 'QR code');
    const image = qrDialog.getByRole('img', { name: `QR code: ${NEW_ACCOUNT.firstName} ${NEW_ACCOUNT.lastName}` });
    await image.waitFor();
    expect(await image.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await until(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(100);
    await shot(page, 'hr-qr-code');
    await qrDialog.getByRole('button', { name: 'Close' }).click();
    await qrDialog.waitFor({ state: 'detached' });
  });

  it('filters by asset name and by full name (AssetName, HumanResourceFullName)', async () => {
    await hr.showFilter();
    const cases: [label: string, typed: string, param: string, expected: string[]][] = [
      ['Asset name', 'Absheron', 'AssetName', ['Aytan Nasibli', 'Sevda Huseynova']],
      ['Full name', 'Kamran Ali', 'HumanResourceFullName', ['Kamran Aliyev']],
    ];
    for (const [label, typed, param, expected] of cases) {
      const field = hr.filterField(label);
      await Promise.all([
        page.waitForRequest((r) => new URL(r.url()).pathname === '/api/humanResource/filter' && new URL(r.url()).searchParams.get(param) === typed),
        field.fill(typed),
      ]);
      await hr.shows('Full name', expected);
      await shot(page, 'hr-filter');
      await field.fill('');
      await hr.shows('Full name', ['Aytan Nasibli', 'Sevda Huseynova', 'Kamran Aliyev']);
    }
  });

  it('exports HumanResources.xlsx for a start and end date, showing the download progress', async () => {
    await hr.button('Export').click();
    const form = await hr.form('Export Excel');
    const download = form.root.getByRole('button', { name: 'Download' });
    await download.click();
    await form.message('Start date is required').waitFor();
    await form.message('End date is required').waitFor();
    await form.field('Start date').fill(day(1));
    await form.field('End date').fill(day(-1));
    await form.message('End date cannot be before the start date').waitFor();
    await shot(page, 'hr-export-validation');

    await form.field('Start date').fill(day(-1));
    await form.field('End date').fill(day(1));
    const { file: exported, url, contentLength } = await downloads.exportHeld(page, '**/api/humanResource/export**', download, form.root, async (progress) => {
      expect(await progress.getAttribute('aria-label')).toMatch(/^Downloading…/);
      await shot(page, 'hr-export-progress');
    });
    // The browser's days (Asia/Baku, +04:00) as instants: the start day's midnight, and the midnight after the end day.
    expect(url.searchParams.get('startDate')).toBe(`${day(-1)}T00:00:00+04:00`);
    expect(url.searchParams.get('endDate')).toBe(`${dayAfter(day(1))}T00:00:00+04:00`);
    expect(contentLength, 'the export names its length, so the bar can show a percentage').toBeGreaterThan(0);
    await form.root.waitFor({ state: 'detached' });

    expect(exported.fileName).toBe('HumanResources.xlsx');
    expect(exported.header).toEqual(['Asset name', 'First name', 'Last name', 'Email', 'Phone number', 'Active', 'Otp login', 'See Employee Id', 'Created']);
    expect(exported.headerBold).toBe(true);
    expect(exported.data.map((row) => row[3]).sort()).toEqual([NEW_ACCOUNT.email, 'kamran.aliyev@caspian.test', 'sevda.huseynova@absheron.test']);
    expect(exported.data.find((row) => row[3] === NEW_ACCOUNT.email)?.slice(0, 5)).toEqual(['Absheron Foods', NEW_ACCOUNT.firstName, NEW_ACCOUNT.lastName, NEW_ACCOUNT.email, '+994 99 555 66 77']);

    // A range before any account was made: a workbook with the header only.
    await hr.button('Export').click();
    const again = await hr.form('Export Excel');
    await again.field('Start date').fill('2020-01-01');
    await again.field('End date').fill('2020-01-31');
    const empty = await downloads.export(page, again.root.getByRole('button', { name: 'Download' }));
    expect(empty.header[0]).toBe('Asset name');
    expect(empty.data).toEqual([]);
  });

  it('works on a phone (390 px): no sideways page scroll, the create form reachable top to bottom', async () => {
    await checkOnPhone(hr, 'Create HR Account', 'hr-accounts');
  });

  it("deletes the selected accounts after 'Are you sure to delete?'", async () => {
    await hr.rowCheckbox('Kamran Aliyev').check();
    await hr.rowCheckbox('Sevda Huseynova').check();
    await hr.toolbar.getByText('2 selected').waitFor();
    expect(await hr.button('Export').count()).toBe(0);
    await hr.button('Delete').click();
    const confirm = await openedDialog(page, 'Delete');
    expect(await confirm.getByText('Are you sure to delete?').isVisible()).toBe(true);
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await confirm.waitFor({ state: 'detached' });
    await hr.shows('Full name', [`${NEW_ACCOUNT.firstName} ${NEW_ACCOUNT.lastName}`]);
    expect(await stored('kamran.aliyev@caspian.test')).toBeUndefined();
    expect(await stored('sevda.huseynova@absheron.test')).toBeUndefined();
  });
});
