import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, shot } from '../support/browser';
import { MENU } from '../support/sections';
import { useSuite } from '../support/suite';
import { asideLabels, openUserMenu, overflowsHorizontally, pathOf, signIn, storedSession, until, waitForPath } from '../support/ui';

const suite = useSuite();

const heading = (page: Page, name: string) => page.getByRole('heading', { name, level: 1, exact: true });

describe('public routes', () => {
  let page: Page;
  beforeAll(async () => {
    page = await suite.newPage();
  });

  it('shows /privacy (the user agreement) without signing in', async () => {
    await page.goto('/privacy');
    await heading(page, 'User agreement').waitFor();
    expect(pathOf(page)).toBe('/privacy');
    expect(await page.getByRole('heading', { name: '2. Your account' }).isVisible()).toBe(true);
    await shot(page, 'privacy');
  });

  it('redirects /error to /error/error-v1', async () => {
    await page.goto('/error');
    await waitForPath(page, '/error/error-v1');
    await heading(page, 'Page not found').waitFor();
  });

  it('renders the error pages v1 to v6 (404 and "something went wrong")', async () => {
    const expected: Record<string, [string, string]> = {
      'error-v1': ['404', 'Page not found'],
      'error-v2': ['500', 'Something went wrong'],
      'error-v3': ['404', 'Page not found'],
      'error-v4': ['500', 'Something went wrong'],
      'error-v5': ['404', 'Page not found'],
      'error-v6': ['500', 'Something went wrong'],
    };
    for (const [variant, [code, title]] of Object.entries(expected)) {
      await page.goto(`/error/${variant}`);
      await heading(page, title).waitFor();
      expect(pathOf(page)).toBe(`/error/${variant}`);
      expect(await page.getByText(code, { exact: true }).isVisible(), variant).toBe(true);
      expect(await page.getByRole('link', { name: 'Go to the home page' }).isVisible(), variant).toBe(true);
      await shot(page, `error-${variant.slice(-2)}`);
    }
  });

  it('sends any unknown path to /error/error-v5', async () => {
    for (const path of ['/no-such-page', '/users/42/unknown', '/admin']) {
      await page.goto(path);
      await waitForPath(page, '/error/error-v5');
      await heading(page, 'Page not found').waitFor();
    }
  });

  it('sends /auth and unknown auth paths to /auth/login', async () => {
    for (const path of ['/auth', '/auth/whatever', '/auth/whatever/deeper']) {
      await page.goto(path);
      await waitForPath(page, '/auth/login');
      await heading(page, 'Sign In').waitFor();
    }
  });

  it('shows the registration screen as closed (the server does not allow registration)', async () => {
    // Sign-in offers no Sign Up link while registration is closed; the address still answers.
    await page.goto('/auth/registration');
    await page.getByText('Registration is closed. Accounts are created by an administrator.').waitFor();
    await shot(page, 'registration-closed');
  });

  it('resets a forgotten password: request on the forgot-password screen, open the link, set a new password', async () => {
    await page.goto('/auth/reset-password');
    await page.getByText('This reset link is incomplete. Request a new one from the sign-in page.').waitFor();

    await page.goto('/auth/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await waitForPath(page, '/auth/forgot-password');
    await heading(page, 'Forgotten password?').waitFor();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Email is required', { exact: true }).waitFor();
    await page.getByLabel('Email').fill('someone');
    await page.getByText('Wrong email format. E.g. name@example.com').waitFor();
    await shot(page, 'forgot-password');
    await page.getByLabel('Email').fill(suite.admin.email);
    await page.getByRole('button', { name: 'Submit' }).click();
    await waitForPath(page, '/auth/login');
    const notice = page.locator('form [data-tone="success"]');
    await notice.waitFor();
    expect((await notice.innerText()).trim()).toBe('If the e-mail belongs to an account, a reset link has been sent to it.');

    // Without SMTP the server logs the link for the operator, who passes it on.
    await page.goto(await suite.server.resetLinkFor(suite.admin.email));
    await heading(page, 'Set a new password').waitFor();
    const newPassword = 'Reset-pass-2027';
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill('Reset-pass-2028');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Both new password need to be the same').waitFor();
    await shot(page, 'reset-password');
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Submit' }).click();
    await waitForPath(page, '/auth/login');
    await page.getByText('Your password has been changed. You can sign in with it now.').waitFor();
    // The next describe signs in with it.
    suite.admin.password = newPassword;
  });

  it('sends an unauthenticated visitor of an admin route to /auth/login', async () => {
    await page.goto('/dashboard');
    await waitForPath(page, '/auth/login?returnTo=%2Fdashboard');
    await page.goto('/');
    await waitForPath(page, '/auth/login');
  });
});

describe('signed-in routes and layout', () => {
  let page: Page;
  beforeAll(async () => {
    page = await suite.newPage();
  });

  it('sends an Admin from / to /users after signing in', async () => {
    await signIn(page, suite.admin, '/');
    await waitForPath(page, '/users');
    await heading(page, 'Users').waitFor();
    await page.getByText(`Hi, ${suite.admin.fullName}`).waitFor();
  });

  it('lists the side menu in the spec order', async () => {
    expect(await asideLabels(page)).toEqual(MENU);
  });

  it('sends a signed-in visit of /auth to /', async () => {
    await page.goto('/auth');
    await waitForPath(page, '/users');
    await page.goto('/auth/whatever');
    await waitForPath(page, '/users');
  });

  it('shows the own profile at /my-page and /user-profile', async () => {
    for (const path of ['/my-page', '/user-profile']) {
      await page.goto(path);
      await heading(page, 'My profile').waitFor();
      await page.getByText(suite.admin.email, { exact: true }).waitFor();
    }
    await shot(page, 'my-profile');
  });

  it('switches the UI language from the header and remembers it', async () => {
    await page.goto('/users');
    await page.getByRole('button', { name: 'Language: English' }).click();
    await page.getByRole('menuitem', { name: 'Deutsch' }).click();
    const germanUsers = page.getByRole('link', { name: 'Benutzer', exact: true });
    await germanUsers.waitFor();
    await page.reload();
    await germanUsers.waitFor();
    await shot(page, 'language-german');
    await page.getByRole('button', { name: 'Sprache: Deutsch' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await until(() => asideLabels(page)).toEqual(MENU);
  });

  it('lays the admin panel out for a phone: the menu opens from the header', async () => {
    await page.setViewportSize(PHONE);
    try {
      await page.goto('/dashboard');
      await heading(page, 'Dashboard').waitFor();
      expect(await page.getByRole('navigation', { name: 'Main menu' }).isVisible()).toBe(false);
      expect(await overflowsHorizontally(page), 'the page scrolls sideways at 390 px').toBe(false);
      await shot(page, 'phone-header');

      await page.getByRole('button', { name: 'Open menu' }).click();
      const menu = page.getByRole('navigation', { name: 'Main menu' });
      await menu.waitFor();
      await shot(page, 'menu-phone');
      await menu.getByRole('link', { name: 'Reports' }).click();
      await waitForPath(page, '/reports');
      await heading(page, 'Reports').waitFor();
      await menu.waitFor({ state: 'hidden' });
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it('applies a layout from /builder with Preview, keeps it across a reload, and restores the default with Reset', async () => {
    await page.goto('/builder');
    await heading(page, 'Layout builder').waitFor();
    expect(await page.getByRole('tab').allInnerTexts()).toEqual(['Header', 'Subheader', 'Content', 'Aside', 'Footer']);
    await shot(page, 'builder');

    const greeting = page.getByText(`Hi, ${suite.admin.fullName}`);
    const footer = page.getByRole('contentinfo');
    expect(await greeting.isVisible()).toBe(true);
    expect(await footer.isVisible()).toBe(true);

    await page.getByRole('tab', { name: 'Header', exact: true }).click();
    await page.getByLabel('Show the greeting').uncheck();
    await page.getByRole('tab', { name: 'Footer' }).click();
    await page.getByLabel('Show the footer').uncheck();
    // Nothing changes before Preview.
    expect(await greeting.isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByText('The layout has been applied and saved.').waitFor();
    await greeting.waitFor({ state: 'hidden' });
    await footer.waitFor({ state: 'hidden' });
    await shot(page, 'builder-applied');

    await page.reload();
    await heading(page, 'Layout builder').waitFor();
    expect(await greeting.isVisible()).toBe(false);
    expect(await footer.isVisible()).toBe(false);
    await page.goto('/users');
    await heading(page, 'Users').waitFor();
    expect(await footer.isVisible(), 'the layout applies to every screen').toBe(false);

    await page.goto('/builder');
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByText('The default layout has been restored.').waitFor();
    await greeting.waitFor();
    await footer.waitFor();
    await page.reload();
    await greeting.waitFor();
    await page.getByRole('tab', { name: 'Footer' }).click();
    expect(await page.getByLabel('Show the footer').isChecked()).toBe(true);
  });

  it('opens the layout builder from the user menu', async () => {
    await page.goto('/users');
    const menu = await openUserMenu(page);
    await menu.getByRole('menuitem', { name: 'Layout builder' }).click();
    await waitForPath(page, '/builder');
  });

  it('logs out at /logout and goes to /auth/login; admin routes then need a sign-in again', async () => {
    await page.goto('/logout');
    await waitForPath(page, '/auth/login');
    expect(await storedSession(page)).toBeNull();
    await page.goto('/users');
    await waitForPath(page, '/auth/login?returnTo=%2Fusers');
  });
});
