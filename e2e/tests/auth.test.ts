import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { shot, PHONE } from '../support/browser';
import { useSuite } from '../support/suite';
import { openedDialog, openUserMenu, pathOf, signInAlert, signInForm, storedSession, submitSignIn, until, waitForPath } from '../support/ui';

// Sign-in attempts are limited per address (10 a minute by default): this file makes nine.
const suite = useSuite({
  locked: { email: 'locked.out@perkdesk.test', firstName: 'Leyla', lastName: 'Locked', password: 'Locked-pass-2026' },
});

describe('sign-in, session and sign-out', () => {
  let page: Page;

  beforeAll(async () => {
    page = await suite.newPage();
  });

  it('shows the sign-in screen with its fields and the spec placeholder', async () => {
    await page.goto('/auth/login');
    const form = signInForm(page);
    await form.submit.waitFor();
    expect(await form.userName.getAttribute('placeholder')).toBe('Email and agent number');
    expect(await page.getByRole('link', { name: 'Forgot password?' }).isVisible()).toBe(true);
    await shot(page, 'sign-in');

    const phone = await suite.newPage({ viewport: PHONE });
    await phone.goto('/auth/login');
    await signInForm(phone).submit.waitFor();
    await shot(phone, 'sign-in-phone');
    await phone.context().close();
  });

  it('refuses an empty form with the spec messages, without calling the server', async () => {
    let calls = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/admin/token')) calls += 1;
    });
    await signInForm(page).submit.click();
    for (const message of ['Email is required', 'Required field', 'Otp is required']) {
      await page.getByText(message, { exact: true }).waitFor();
    }
    expect(calls).toBe(0);
    await shot(page, 'sign-in-validation');
  });

  it('shows "The login detail is incorrect" (danger) for a wrong TOTP code', async () => {
    const response = await submitSignIn(page, suite.admin, { otp: suite.admin.wrongCode() });
    expect(response.status()).toBe(401);
    expect(await signInAlert(page)).toEqual({ text: 'The login detail is incorrect', tone: 'danger' });
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    expect(await storedSession(page)).toBeNull();
    await shot(page, 'sign-in-wrong-code');
  });

  it('locks an account after five failures: "You are locked." as an info alert, even with the right code then', async () => {
    const locked = suite.accounts.locked;
    const lockPage = await suite.newPage();
    await lockPage.goto('/auth/login');
    for (let failure = 1; failure <= 4; failure += 1) {
      await submitSignIn(lockPage, locked, { otp: locked.wrongCode() });
      expect(await signInAlert(lockPage), `failure ${failure}`).toEqual({ text: 'The login detail is incorrect', tone: 'danger' });
    }
    const fifth = await submitSignIn(lockPage, locked, { otp: locked.wrongCode() });
    expect(fifth.status()).toBe(423);
    expect(await signInAlert(lockPage)).toEqual({ text: 'You are locked.', tone: 'info' });
    await shot(lockPage, 'sign-in-locked');

    // The right password and a fresh code do not get through a lock.
    const correct = await submitSignIn(lockPage, locked);
    expect(correct.status()).toBe(423);
    expect(await signInAlert(lockPage)).toEqual({ text: 'You are locked.', tone: 'info' });
    expect(new URL(lockPage.url()).pathname).toBe('/auth/login');
    await lockPage.context().close();
  });

  it('sends an unauthenticated visit of /users to sign-in, and back to /users after signing in with a TOTP code', async () => {
    await page.goto('/users');
    await waitForPath(page, '/auth/login?returnTo=%2Fusers');
    // Hold the answer back a moment: the Sign In button shows its spinner while the call runs.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/admin/token', async (route) => {
      await held;
      await route.continue();
    });
    const signingIn = submitSignIn(page, suite.admin);
    const submit = signInForm(page).submit;
    await until(() => submit.getAttribute('aria-busy')).toBe('true');
    expect(await submit.isDisabled()).toBe(true);
    await shot(page, 'sign-in-busy');
    release();
    const response = await signingIn;
    await page.unroute('**/api/auth/admin/token');
    expect(response.status()).toBe(200);
    await waitForPath(page, '/users');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByText(`Hi, ${suite.admin.fullName}`).waitFor();

    const session = await storedSession(page);
    expect(session?.user?.email).toBe(suite.admin.email);
    expect(Date.parse(session?.expireDate ?? '')).toBeGreaterThan(Date.now());
  });

  it('sends a signed-in visit of /auth (and /auth/login) to /, which is /users for an Admin', async () => {
    await page.goto('/auth');
    await waitForPath(page, '/users');
    await page.goto('/auth/login');
    await waitForPath(page, '/users');
  });

  it('changes the own password from the header user menu, with the spec rules and messages', async () => {
    const menu = await openUserMenu(page);
    expect(await menu.getByText(suite.admin.email).isVisible()).toBe(true);
    await shot(page, 'user-menu');
    await menu.getByRole('menuitem', { name: 'Change Password' }).click();

    const form = await openedDialog(page, 'Change Password');
    const save = form.getByRole('button', { name: 'Save' });
    await save.click();
    for (const message of ['Old password is required', 'New password is required', 'Confirm password is required']) {
      await form.getByText(message, { exact: true }).waitFor();
    }

    const newPassword = 'Changed-pass-2027';
    await form.getByLabel('Old password').fill(suite.admin.password);
    await form.getByLabel('New password', { exact: true }).fill('onlyletters');
    await form.getByLabel('Confirm new password').fill('another-one-1');
    await form.getByText('Password must consist of a letter, a number.').waitFor();
    await form.getByText('Both new password need to be the same').waitFor();
    await shot(page, 'own-change-password-validation');

    // A wrong current password is the server's answer, shown inside the form; the user stays signed in.
    await form.getByLabel('Old password').fill('Wrong-old-1234');
    await form.getByLabel('New password', { exact: true }).fill(newPassword);
    await form.getByLabel('Confirm new password').fill(newPassword);
    await save.click();
    // The server names the old password: its message shows there (or in the alert when it names no field), once.
    await form.getByText('Old password is incorrect.', { exact: true }).waitFor();
    expect(await form.getByText('Old password is incorrect.', { exact: true }).count()).toBe(1);
    await until(() => save.isEnabled()).toBe(true);
    await shot(page, 'own-change-password-server-error');
    expect(pathOf(page)).toBe('/users');

    await form.getByLabel('Old password').fill(suite.admin.password);
    await save.click();
    await form.waitFor({ state: 'detached' });
    suite.admin.password = newPassword;
    // The own session survives the change.
    expect(pathOf(page)).toBe('/users');
    await page.reload();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
  });

  it('signs out from the user menu to /auth/login, clearing the session, and signs in again with the new password', async () => {
    const menu = await openUserMenu(page);
    await menu.getByRole('menuitem', { name: 'Sign Out' }).click();
    await waitForPath(page, '/auth/login');
    expect(await storedSession(page)).toBeNull();

    await page.goto('/users');
    await waitForPath(page, '/auth/login?returnTo=%2Fusers');
    const response = await submitSignIn(page, suite.admin);
    expect(response.status()).toBe(200);
    await waitForPath(page, '/users');
  });
});
