import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../support/api';
import { shot } from '../support/browser';
import { SECTIONS } from '../support/sections';
import { useSuite } from '../support/suite';
import { asideLabels, openUserMenu, until, waitForPath } from '../support/ui';

// Both made with create-admin (so their TOTP secrets are known), then given their roles by the Admin.
const suite = useSuite({
  clerk: { email: 'ilaha.user@perkdesk.test', firstName: 'Ilaha', lastName: 'Rahimova', password: 'Clerk-pass-2026' },
  operator: { email: 'orkhan.callcenter@perkdesk.test', firstName: 'Orkhan', lastName: 'Sadigov', password: 'Operator-pass-2026' },
});

/** The sections a User or a Call Center operator can open (the Users screen is the Admins'). */
const STAFF_SECTIONS = SECTIONS.filter((section) => section.path !== '/users');

describe('role rules in the browser', () => {
  beforeAll(async () => {
    const api = await suite.api();
    await api.setRole(suite.accounts.clerk.email, Role.User);
    await api.setRole(suite.accounts.operator.email, Role.CallCenter);
  });

  describe('a User (role 1)', () => {
    let page: Page;
    beforeAll(async () => {
      page = await suite.signedIn(suite.accounts.clerk);
    });

    it('does not see the Users menu item and lands on a section it may use', async () => {
      expect(new URL(page.url()).pathname).not.toBe('/users');
      expect(await asideLabels(page)).toEqual(STAFF_SECTIONS.map((section) => section.title));
      await page.getByText('Hi, Ilaha Rahimova').waitFor();
      await shot(page, 'role-user-home');
    });

    it('is told that /users is not available for the role, without a table', async () => {
      await page.goto('/users');
      await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      await page.getByText('Not available for your role').waitFor();
      expect(await page.getByRole('table').count()).toBe(0);
      await shot(page, 'role-user-forbidden');
    });

    it('still changes the own password from the user menu', async () => {
      const menu = await openUserMenu(page);
      expect(await menu.getByRole('menuitem', { name: 'Change Password' }).isVisible()).toBe(true);
      await page.keyboard.press('Escape');
    });
  });

  describe('a Call Center operator (role 2)', () => {
    let page: Page;
    beforeAll(async () => {
      page = await suite.signedIn(suite.accounts.operator);
    });

    it('does not see the Users menu item and cannot open /users', async () => {
      expect(await asideLabels(page)).toEqual(STAFF_SECTIONS.map((section) => section.title));
      await page.goto('/users');
      await page.getByText('Not available for your role').waitFor();
      expect(await page.getByRole('table').count()).toBe(0);
    });

    it('sees every list without write controls (no create, select, edit, delete or status switch)', async () => {
      await page.goto('/dashboard');
      for (const { path, title } of STAFF_SECTIONS) {
        // Through the side menu, as the operator moves around.
        await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: title, exact: true }).click();
        await waitForPath(page, path);
        await until(() => page.title()).toBe(`${title} · perkdesk`);
        // Wait for the screen itself: the "coming later" state, or its table done loading.
        const main = page.getByRole('main');
        await main.getByText('Coming in a later release').or(main.locator('table[aria-busy="false"]')).first().waitFor();
        const writeControls = page
          .getByRole('main')
          .getByRole('button', { name: /^(Create|Edit|Delete|Change Password|QR code)$/ })
          .or(page.getByRole('main').getByRole('checkbox'))
          .or(page.getByRole('main').getByRole('switch'));
        expect(await writeControls.count(), `write controls on ${path}`).toBe(0);
      }
      await page.goto('/dashboard');
      await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
      await shot(page, 'role-call-center');
    });
  });
});
