import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { az } from '../../frontend/src/lib/i18n/az';
import { ru } from '../../frontend/src/lib/i18n/ru';
import { shot } from '../support/browser';
import { englishPatterns, nameOf, openScreen, SCREENS, screenTexts, seedScreens } from '../support/screens';
import { useSuite } from '../support/suite';
import { openedDialog } from '../support/ui';

/**
 * Issue 25 from outside: every screen in Azerbaijani and in Russian with no English string left on
 * it, its forms, messages and the server's refusals too, and the choice remembered.
 */
const suite = useSuite();

beforeAll(() => seedScreens(suite));

describe.each([
  { code: 'az', label: 'Azərbaycanca', translation: az, dashboard: 'İdarə paneli' },
  { code: 'ru', label: 'Русский', translation: ru, dashboard: 'Дашборд' },
])('every screen in $label', ({ code, label, translation, dashboard }) => {
  let page: Page;
  const patterns = englishPatterns(translation as unknown as Record<string, unknown>);

  beforeAll(async () => {
    page = await suite.signedIn(suite.admin, '/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    // The check finds English where there is English: in the English panel it reads a screenful.
    expect((await screenTexts(page)).filter((text) => patterns.some((pattern) => pattern.test(text))).length).toBeGreaterThan(20);
    await page.getByRole('button', { name: /^Language: English$/ }).click();
    // The picker names each language in itself.
    expect(await page.getByRole('menuitem').allInnerTexts()).toEqual(['English', 'Azərbaycanca', 'Русский', 'Deutsch', 'Español', 'Français', '日本語', '中文']);
    await page.getByRole('menuitem', { name: label }).click();
    await page.getByRole('heading', { name: dashboard, level: 1 }).waitFor();
  });

  it.each(SCREENS)(`%s has no English string left (${code})`, async (path) => {
    // Reached inside the page, as the side menu moves: the language chosen in the picker holds on
    // every screen after it without a reload.
    await openScreen(page, path, { inApp: true });
    const english = (await screenTexts(page)).filter((text) => patterns.some((pattern) => pattern.test(text)));
    expect(english, `English on ${path} in ${label}`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(code);
    if (path === '/campaigns' || path === '/users' || path === '/dashboard') await shot(page, `language-${code}-${nameOf(path)}`);
  });

  it(`a form, its messages and the drawer speak ${label} too`, async () => {
    await openScreen(page, '/users');
    await page.getByRole('button', { name: translation['button.create'] as string }).click();
    const dialog = await openedDialog(page, translation['users.create'] as string);
    await dialog.getByRole('button', { name: translation['button.save'] as string }).click();
    // The spec's required-field messages, in the chosen language.
    await dialog.getByText(code === 'az' ? 'Ad mütləqdir' : 'Укажите имя').first().waitFor();
    const english = (await screenTexts(page)).filter((text) => patterns.some((pattern) => pattern.test(text)) || text === 'Firstname is required');
    expect(english).toEqual([]);
    await shot(page, `language-${code}-users-create`);
    await page.keyboard.press('Escape');
  });

  it(`a refusal from the server speaks ${label} too`, async () => {
    // The category holds a campaign: the server refuses the delete, in its English words, and the
    // panel shows them in the interface language.
    await openScreen(page, '/categorynames');
    const groceries = code === 'az' ? 'Ərzaq' : 'Продукты';
    await page.getByRole('row').filter({ hasText: groceries }).getByRole('button', { name: translation['button.delete'] as string, exact: true }).click();
    const question = page.getByRole('dialog');
    await question.getByRole('button', { name: translation['button.yes'] as string }).click();
    await question.getByRole('alert').getByText(code === 'az' ? /kampaniyaları olan kateqoriya silinə bilməz/ : /Нельзя удалить категорию, в которой ещё есть кампании/).waitFor();
    expect((await screenTexts(page)).filter((text) => /cannot be deleted/.test(text))).toEqual([]);
    await shot(page, `language-${code}-refusal`);
    await question.getByRole('button', { name: translation['button.no'] as string }).click();
    await openScreen(page, '/users');
  });

  it(`remembers ${label} after a reload and goes back to English from the picker`, async () => {
    await page.reload();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, localStorage.getItem('perkdesk-language')])).toEqual([code, code]);
    await page.getByRole('button', { name: `${translation['header.language'] as string}: ${label}` }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
  });
});
