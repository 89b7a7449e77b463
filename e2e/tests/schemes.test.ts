import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/axe';
import { shot } from '../support/browser';
import { nameOf, openScreen, SCREENS, seedScreens } from '../support/screens';
import { useSuite } from '../support/suite';
import { openedDialog, openUserMenu, signIn } from '../support/ui';

/**
 * Issue 25 from outside: every screen in the dark scheme with axe finding nothing serious, and each
 * screen's picture in both schemes; the language and scheme taken from the browser until the
 * person chooses.
 */
const suite = useSuite();

beforeAll(() => seedScreens(suite));

describe('the colour schemes', () => {
  let page: Page;

  beforeAll(async () => {
    page = await suite.signedIn(suite.admin, '/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  });

  it.each(SCREENS)('%s in light, then in dark with no serious axe finding', async (path) => {
    await page.evaluate(() => localStorage.setItem('perkdesk-theme', 'light'));
    await openScreen(page, path);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await shot(page, `scheme-light-${nameOf(path)}`);

    await page.evaluate(() => localStorage.setItem('perkdesk-theme', 'dark'));
    await openScreen(page, path);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    // The page is dark, not only its name: the window behind the cards is drawn dark.
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(11, 17, 28)');
    await expectAccessible(page, `${path} in the dark scheme`);
    await shot(page, `scheme-dark-${nameOf(path)}`);
  });

  it('dialogs, drawers and menus pass axe in the dark scheme', async () => {
    await page.evaluate(() => localStorage.setItem('perkdesk-theme', 'dark'));
    await openScreen(page, '/users');
    await page.getByRole('button', { name: 'Create' }).click();
    await openedDialog(page, 'Create User');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByText('Firstname is required').first().waitFor();
    await expectAccessible(page, 'Create User with its messages, dark');
    await shot(page, 'scheme-dark-users-create');
    await page.keyboard.press('Escape');

    await page.getByRole('row', { name: /leyla\.quliyeva/ }).getByRole('button', { name: 'View' }).click();
    await openedDialog(page, 'User details');
    await expectAccessible(page, 'User details drawer, dark');
    await shot(page, 'scheme-dark-users-drawer');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Columns' }).click();
    await expectAccessible(page, 'the column chooser, dark');
    await page.keyboard.press('Escape');
    await openUserMenu(page);
    await expectAccessible(page, 'the user menu, dark');
    await shot(page, 'scheme-dark-user-menu');
    await page.keyboard.press('Escape');
  });

  it('the user menu offers Light, Dark and System; the choice is remembered, System follows the system', async () => {
    const fresh = await suite.newPage({ colorScheme: 'dark' });
    await signIn(fresh, suite.admin, '/dashboard');
    await fresh.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    // Nothing chosen: the system's dark.
    expect(await fresh.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');

    const menu = await openUserMenu(fresh);
    const schemes = menu.getByRole('group', { name: 'Colour scheme' }).getByRole('menuitem');
    expect(await schemes.allInnerTexts()).toEqual(['Light', 'Dark', 'System']);
    expect(await schemes.evaluateAll((items) => items.map((item) => item.getAttribute('aria-current')))).toEqual([null, null, 'true']);
    await menu.getByRole('menuitem', { name: 'Light' }).click();
    await fresh.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await fresh.keyboard.press('Escape');
    await fresh.reload();
    await fresh.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(await fresh.evaluate(() => [document.documentElement.dataset.theme, localStorage.getItem('perkdesk-theme')])).toEqual(['light', 'light']);

    await (await openUserMenu(fresh)).getByRole('menuitem', { name: 'System' }).click();
    await fresh.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await fresh.emulateMedia({ colorScheme: 'light' });
    await fresh.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  });
});

describe('taken from the browser until the person chooses', () => {
  it('a Russian browser in dark mode gets the sign-in screen in Russian and dark', async () => {
    const page = await suite.newPage({ locale: 'ru-RU', colorScheme: 'dark' });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Вход', level: 1 }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dataset.theme, localStorage.getItem('perkdesk-language')])).toEqual([
      'ru',
      'dark',
      null,
    ]);
    await expectAccessible(page, 'the sign-in screen, Russian and dark');
    await shot(page, 'language-ru-sign-in-dark');
  });

  it('the public screens and the error pages in a dark browser: dark, with no serious axe finding', async () => {
    const page = await suite.newPage({ colorScheme: 'dark' });
    for (const path of ['/auth/login', '/auth/registration', '/auth/forgot-password', '/privacy', '/error/error-v1', '/error/error-v2', '/error/error-v5']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.theme), path).toBe('dark');
      await expectAccessible(page, `${path} in the dark scheme`);
      await shot(page, `scheme-dark-public-${nameOf(path)}`);
    }
  });

  it('an Azerbaijani browser gets Azerbaijani, with the content in Az', async () => {
    const page = await suite.newPage({ locale: 'az-AZ' });
    await page.goto('/campaigns');
    await page.getByRole('heading', { name: 'Daxil ol', level: 1 }).waitFor();
    await page.getByLabel('E-poçt', { exact: true }).fill(suite.admin.email);
    await page.getByLabel('Şifrə', { exact: true }).fill(suite.admin.password);
    await page.getByLabel('Birdəfəlik kod').fill(await suite.admin.nextCode());
    await page.getByRole('button', { name: 'Daxil ol' }).click();
    await page.getByRole('heading', { name: 'Kampaniyalar', level: 1 }).waitFor();
    await page.getByText('Payız endirimi').first().waitFor();
    expect(await page.getByRole('combobox', { name: 'Məzmunun dili' }).inputValue()).toBe('1');
  });
});
