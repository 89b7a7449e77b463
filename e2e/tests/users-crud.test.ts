import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestTokens, Role } from '../support/api';
import { PHONE, shot } from '../support/browser';
import { DownloadFolder } from '../support/exports';
import { seedUsers } from '../support/seed';
import { useSuite } from '../support/suite';
import { openedDialog, until } from '../support/ui';
import { adminOnUsers, UsersScreen } from '../support/usersScreen';

const suite = useSuite({
  target: { email: 'kamala.huseynli@perkdesk.test', firstName: 'Kamala', lastName: 'Huseynli', password: 'Target-pass-2026' },
});

const STRONG_RULE = 'Password must consist of an uppercase letter, a lowercase letter, a number and a character.';
const NEW_USER = { firstName: 'Nuray', lastName: 'Hasanli', email: 'nuray.hasanli@perkdesk.test' };

describe('Users: create, edit, view, status, passwords, QR code, delete, export', () => {
  let page: Page;
  let users: UsersScreen;
  const downloads = new DownloadFolder();

  /** A new user's ten recovery codes show once after the create, for the Admin to hand over. */
  async function handOverRecoveryCodes(name: string) {
    const shown = await openedDialog(page, 'Recovery codes');
    await shown.getByText(`The recovery codes of ${name}: hand them over with the QR code.`).waitFor();
    expect(await shown.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').count()).toBe(10);
    await shown.getByRole('button', { name: 'I have stored the codes' }).click();
    await shown.waitFor({ state: 'detached' });
  }

  beforeAll(async () => {
    await seedUsers(await suite.api());
    users = await adminOnUsers(suite);
    page = users.page;
  });

  afterAll(() => downloads.remove());

  it('creates a user: the spec validation messages first, then success closes the dialog and reloads the list', async () => {
    await users.button('Create').click();
    const form = await openedDialog(page, 'Create User');
    const save = form.getByRole('button', { name: 'Save' });
    await save.click();
    for (const message of ['Firstname is required', 'Lastname is required', 'Email is required', 'Password is required', 'Confirm Password is required']) {
      await form.getByText(message, { exact: true }).waitFor();
    }

    await users.field('Create User', 'First name').fill(NEW_USER.firstName);
    await users.field('Create User', 'Last name').fill(NEW_USER.lastName);
    await users.field('Create User', 'Email').fill('nuray.hasanli');
    await users.field('Create User', 'Role').selectOption({ label: 'Call Center' });
    await form.getByLabel('Operator code').selectOption('070');
    await users.field('Create User', 'Phone number').pressSequentially('1234567');
    expect(await users.field('Create User', 'Phone number').inputValue()).toBe('123 45 67');
    await users.field('Create User', 'Password').fill('password1');
    await users.field('Create User', 'Confirm Password').fill('password1');
    await save.click();
    await form.getByText('Wrong email format. E.g. name@example.com').waitFor();
    await until(() => form.getByText(STRONG_RULE, { exact: true }).count()).toBe(2);
    await shot(page, 'user-create-validation');

    await users.field('Create User', 'Email').fill(NEW_USER.email);
    await users.field('Create User', 'Password').fill('Strong-pass-1');
    await users.field('Create User', 'Confirm Password').fill('Strong-pass-2');
    await form.getByText('Both password need to be the same').waitFor();
    await users.field('Create User', 'Confirm Password').fill('Strong-pass-1');
    await save.click();
    await form.waitFor({ state: 'detached' });
    await handOverRecoveryCodes(`${NEW_USER.firstName} ${NEW_USER.lastName}`);

    // Newest first: the new user heads the list, phone as +994 70 ..., and the API holds 994701234567.
    await until(() => users.emails().then((emails) => emails[0])).toBe(NEW_USER.email);
    expect(await users.row(NEW_USER.email).innerText()).toContain('+994 70 123 45 67');
    const stored = await (await suite.api()).userByEmail(NEW_USER.email);
    expect(stored).toMatchObject({ ...NEW_USER, phone: '994701234567', roleId: Role.CallCenter, isActive: true });

    // The form was reset for the next user.
    await users.button('Create').click();
    const again = await openedDialog(page, 'Create User');
    expect(await users.field('Create User', 'First name').inputValue()).toBe('');
    await again.getByRole('button', { name: 'Cancel' }).click();
    await again.waitFor({ state: 'detached' });
  });

  it("shows the server's message inside the form (duplicate e-mail) and enables Save again", async () => {
    await users.button('Create').click();
    const form = await openedDialog(page, 'Create User');
    await users.field('Create User', 'First name').fill('Another');
    await users.field('Create User', 'Last name').fill('Aydan');
    await users.field('Create User', 'Email').fill('aydan.aliyeva@perkdesk.test');
    await users.field('Create User', 'Password').fill('Strong-pass-1');
    await users.field('Create User', 'Confirm Password').fill('Strong-pass-1');
    const save = form.getByRole('button', { name: 'Save' });
    await save.click();
    // The refusal names the e-mail: said once, under Email, not again in an alert.
    const message = form.getByText('A user with this e-mail already exists.', { exact: true });
    await message.waitFor();
    expect(await message.count()).toBe(1);
    expect(await users.field('Create User', 'Email').getAttribute('aria-invalid')).toBe('true');
    expect(await form.getByRole('alert').count()).toBe(0);
    await until(() => save.isEnabled()).toBe(true);
    await shot(page, 'user-create-server-error');

    // The dialog stays open with what was typed; correcting the e-mail then succeeds.
    expect(await users.field('Create User', 'First name').inputValue()).toBe('Another');
    await users.field('Create User', 'Email').fill('another.aydan@perkdesk.test');
    await save.click();
    await form.waitFor({ state: 'detached' });
    await handOverRecoveryCodes('Another Aydan');
    await until(() => users.emails().then((emails) => emails[0])).toBe('another.aydan@perkdesk.test');
  });

  it('edits a user in the Edit dialog, loaded with the current values', async () => {
    await users.open();
    await users.tool(NEW_USER.email, 'Edit').click();
    const form = await openedDialog(page, 'Edit');
    await until(() => users.field('Edit', 'First name').inputValue()).toBe(NEW_USER.firstName);
    expect(await users.field('Edit', 'Email').inputValue()).toBe(NEW_USER.email);
    expect(await users.field('Edit', 'Phone number').inputValue()).toBe('123 45 67');
    expect(await form.getByLabel('Operator code').inputValue()).toBe('070');
    expect(await form.getByLabel('Password', { exact: true }).count(), 'no password on edit').toBe(0);
    await shot(page, 'user-edit');

    await users.field('Edit', 'First name').fill('');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Firstname is required', { exact: true }).waitFor();
    await users.field('Edit', 'First name').fill(NEW_USER.firstName);
    await users.field('Edit', 'Last name').fill('Mammadli');
    await form.getByLabel('Operator code').selectOption('055');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await until(() => users.row(NEW_USER.email).innerText()).toContain('Mammadli');
    expect(await users.row(NEW_USER.email).innerText()).toContain('+994 55 123 45 67');
    NEW_USER.lastName = 'Mammadli';
  });

  it("opens the 400 px 'User details' drawer with name, e-mail and Active/Inactive", async () => {
    await users.open();
    await users.tool(NEW_USER.email, 'View').click();
    const drawer = await openedDialog(page, 'User details');
    const details = drawer.locator('dl');
    await until(() => details.innerText()).toContain(NEW_USER.email);
    const text = await details.innerText();
    for (const expected of ['First name', NEW_USER.firstName, 'Last name', NEW_USER.lastName, 'Email', 'Status', 'Active']) {
      expect(text).toContain(expected);
    }
    const panel = await drawer.locator('[id^="headlessui-dialog-panel"]').boundingBox();
    expect(panel?.width).toBe(400);
    await shot(page, 'user-details');
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'detached' });
  });

  it('toggles the status with the status control, and the list and the drawer follow', async () => {
    await users.open();
    const toggle = users.row(NEW_USER.email).getByRole('switch', { name: `Change status: ${NEW_USER.firstName} ${NEW_USER.lastName}` });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    await until(() => users.row(NEW_USER.email).innerText()).toContain('Inactive');
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    expect((await (await suite.api()).userByEmail(NEW_USER.email))?.isActive).toBe(false);

    await page.reload();
    await until(() => users.row(NEW_USER.email).innerText()).toContain('Inactive');
    await users.tool(NEW_USER.email, 'View').click();
    const drawer = await openedDialog(page, 'User details');
    await until(() => drawer.locator('dl').innerText()).toContain('Inactive');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    await toggle.click();
    await until(() => toggle.getAttribute('aria-checked')).toBe('true');
    expect(await users.row(NEW_USER.email).innerText()).toContain('Active');
  });

  it("changes another user's password as an Admin; the user then signs in with the new one", async () => {
    const target = suite.accounts.target;
    // Made before the seed, so not on the first page: find it with the filter.
    await users.open('?email=kamala');
    await users.tool(target.email, 'Change Password').click();
    const form = await openedDialog(page, 'Change Password');
    const save = form.getByRole('button', { name: 'Save' });
    await save.click();
    await until(() => form.getByText('Password is required', { exact: true }).count()).toBe(2);
    await form.getByText('Confirm Password is required', { exact: true }).waitFor();

    const newPassword = 'Reset-by-admin-77';
    await form.getByLabel('Your password').fill(suite.admin.password);
    await form.getByLabel('New password', { exact: true }).fill('short1');
    await form.getByLabel('Confirm new password').fill('Reset-by-admin-78');
    await form.getByText('Password must consist of a number.').waitFor();
    await form.getByText('Both password need to be the same').waitFor();
    await shot(page, 'user-change-password');

    await form.getByLabel('New password', { exact: true }).fill(newPassword);
    await form.getByLabel('Confirm new password').fill(newPassword);
    await save.click();
    await form.waitFor({ state: 'detached' });

    const tokens = await requestTokens(suite.server.baseUrl, target, newPassword);
    expect(tokens.token).toBeTruthy();
    target.password = newPassword;
  });

  it('shows the authenticator QR code of a user as an image', async () => {
    await users.open();
    await users.tool(NEW_USER.email, 'QR code').click();
    const qrDialog = await openedDialog(page, 'QR code');
    const image = qrDialog.getByRole('img', { name: `QR code: ${NEW_USER.firstName} ${NEW_USER.lastName}` });
    await image.waitFor();
    expect(await image.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await until(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(100);
    await shot(page, 'user-qr-code');
    await qrDialog.getByRole('button', { name: 'Close' }).click();
    await qrDialog.waitFor({ state: 'detached' });
  });

  it('exports the list as Users.xlsx, a workbook with a header row and every user', async () => {
    await users.open();
    const api = await suite.api();
    const all = await api.usersWhere();
    const exported = await downloads.export(page, users.button('Export'));
    expect(exported.fileName).toBe('Users.xlsx');
    expect(exported.header).toEqual(['First name', 'Last name', 'Email', 'Phone number', 'Role', 'Active']);
    expect(exported.headerBold).toBe(true);
    expect(exported.data.length).toBe(all.totalCount);
    expect(exported.data.map((row) => row[2]).sort()).toEqual(all.data.map((user) => user.email).sort());
    const nuray = exported.data.find((row) => row[2] === NEW_USER.email);
    expect(nuray?.slice(0, 5)).toEqual([NEW_USER.firstName, NEW_USER.lastName, NEW_USER.email, '+994 55 123 45 67', 'Call Center']);
  });

  it('exports only the rows of the current filter', async () => {
    await users.open('?lastName=Hasanov');
    await until(() => users.emails()).toEqual(['jale.hasanova@perkdesk.test', 'elvin.hasanov@perkdesk.test', 'babek.hasanov@perkdesk.test']);
    const exported = await downloads.export(page, users.button('Export'));
    expect(exported.fileName).toBe('Users.xlsx');
    expect(exported.data.map((row) => row[2]).sort()).toEqual(['babek.hasanov@perkdesk.test', 'elvin.hasanov@perkdesk.test', 'jale.hasanova@perkdesk.test']);
  });

  it("deletes one user from its row after 'Are you sure to delete?'", async () => {
    await users.open();
    await users.tool('another.aydan@perkdesk.test', 'Delete').click();
    const confirm = await openedDialog(page, 'Delete');
    expect(await confirm.getByText('Are you sure to delete?').isVisible()).toBe(true);
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await confirm.waitFor({ state: 'detached' });
    await until(() => users.emails()).not.toContain('another.aydan@perkdesk.test');
    expect(await (await suite.api()).userByEmail('another.aydan@perkdesk.test')).toBeUndefined();
  });

  it("does not offer deleting or deactivating the own account, which the server refuses anyway", async () => {
    await users.open(`?email=${suite.admin.email}`);
    await users.showsEmails([suite.admin.email]);
    const remove = users.tool(suite.admin.email, 'Delete');
    const status = users.row(suite.admin.email).getByRole('switch');
    expect(await remove.isDisabled()).toBe(true);
    expect(await status.isDisabled()).toBe(true);
    // The reason is on hover and read out with the control.
    expect(await remove.getAttribute('aria-description')).toBe('You cannot delete your own account');
    expect(await status.getAttribute('aria-description')).toBe('You cannot deactivate your own account');
    await remove.hover({ force: true });
    await shot(page, 'user-delete-own-disabled');
    expect(await status.getAttribute('aria-checked')).toBe('true');

    // The server is the guard: the same requests made directly are refused.
    const api = await suite.api();
    const own = await api.userByEmail(suite.admin.email);
    await expect(api.call('DELETE', 'user', { id: [own?.id] })).rejects.toThrow(/409 You cannot delete your own account\./);
    await expect(api.call('PATCH', 'user/active', { id: own?.id, isActive: false })).rejects.toThrow(/409 You cannot deactivate your own account\./);
  });

  it('keeps focus inside an open dialog and closes it with Escape, returning focus to the opener', async () => {
    await users.open();
    const create = users.button('Create');
    await create.focus();
    await page.keyboard.press('Enter');
    const form = await openedDialog(page, 'Create User');
    const focusInside = () => form.evaluate((root) => root.contains(document.activeElement));
    expect(await focusInside()).toBe(true);
    for (let step = 0; step < 14; step += 1) {
      await page.keyboard.press('Tab');
      expect(await focusInside(), `after Tab ${step + 1}`).toBe(true);
    }
    for (let step = 0; step < 5; step += 1) {
      await page.keyboard.press('Shift+Tab');
      expect(await focusInside(), `after Shift+Tab ${step + 1}`).toBe(true);
    }
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    await until(() => create.evaluate((button) => button === document.activeElement)).toBe(true);

    // The header's user menu works from the keyboard too, and Escape closes it.
    await page.getByRole('button', { name: 'User menu' }).focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await until(() => menu.evaluate((root) => root.contains(document.activeElement) || root === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
  });

  it('shows the dialogs and the drawer usably on a phone (390 px)', async () => {
    await page.setViewportSize(PHONE);
    try {
      await users.open();
      await users.button('Create').click();
      const form = await openedDialog(page, 'Create User');
      const box = await form.getByRole('button', { name: 'Save' }).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= PHONE.width, 'Save is on screen').toBe(true);
      await shot(page, 'user-create-phone');
      await page.keyboard.press('Escape');
      await form.waitFor({ state: 'detached' });

      // Row tools sit at the end of a wide table: scroll the row into view as a thumb would.
      const view = users.tool(NEW_USER.email, 'View');
      await view.scrollIntoViewIfNeeded();
      await view.click();
      const drawer = await openedDialog(page, 'User details');
      const panel = await drawer.locator('[id^="headlessui-dialog-panel"]').boundingBox();
      expect(panel?.width).toBe(PHONE.width);
      await shot(page, 'user-details-phone');
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached' });
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
