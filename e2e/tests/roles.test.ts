import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../support/api';
import { shot } from '../support/browser';
import { DownloadFolder } from '../support/exports';
import { pngBytes } from '../support/images';
import { ASSETS, HR_ACCOUNTS, ListScreen, PARTNERS, type ScreenSpec } from '../support/listScreen';
import { ADMIN_ONLY, SECTIONS } from '../support/sections';
import { useSuite } from '../support/suite';
import { asideLabels, openedDialog, openUserMenu, until, waitForPath } from '../support/ui';

// Both made with create-admin (so their TOTP secrets are known), then given their roles by the Admin.
const suite = useSuite({
  clerk: { email: 'ilaha.user@perkdesk.test', firstName: 'Ilaha', lastName: 'Rahimova', password: 'Clerk-pass-2026' },
  operator: { email: 'orkhan.callcenter@perkdesk.test', firstName: 'Orkhan', lastName: 'Sadigov', password: 'Operator-pass-2026' },
});

/** The sections a User or a Call Center operator can open (the Users screen is the Admins'). */
const STAFF_SECTIONS = SECTIONS.filter((section) => !ADMIN_ONLY.includes(section.path));

/** The built list screens other than Users, each with a row the Admin made and its drawer's title. */
const READABLE: { spec: ScreenSpec; row: string; drawer: string }[] = [
  { spec: ASSETS, row: 'Caspian Logistics', drawer: 'Asset details' },
  { spec: HR_ACCOUNTS, row: 'Kamran Aliyev', drawer: 'Human resource details' },
  { spec: PARTNERS, row: 'Araz Market', drawer: 'Partner details' },
];

/** Anything on the screen that would change data: create, edit, delete, password, QR code, selection, status switches. */
const writeControls = (page: Page) => {
  const main = page.getByRole('main');
  return main
    .getByRole('button', { name: /^(Create|Edit|Delete|Change Password|QR code)$/ })
    .or(main.getByRole('checkbox'))
    .or(main.getByRole('switch'));
};

describe('role rules in the browser', () => {
  beforeAll(async () => {
    const api = await suite.api();
    await api.setRole(suite.accounts.clerk.email, Role.User);
    await api.setRole(suite.accounts.operator.email, Role.CallCenter);
    // One row on each list, so an operator has something to read.
    const asset = await api.createAsset(
      { name: 'Caspian Logistics', contactPerson: 'Leyla Quliyeva', phoneNumber: '994513334455', email: 'leyla@caspian.test', barcodePrefix: 'CL1' },
      pngBytes(24, [79, 70, 229], [255, 255, 255]),
    );
    await api.createHrAccount({ assetId: asset.id, firstName: 'Kamran', lastName: 'Aliyev', email: 'kamran.aliyev@caspian.test', phone: '994512223344', password: 'hrportal2025' });
    await api.createPartner({
      name: 'Araz Market',
      contactPersonFirstName: 'Tofiq',
      contactPersonLastName: 'Aliyev',
      phoneNumber: '994502001122',
      email: 'tofiq@araz.test',
      cities: [{ cityId: 1, address: 'Nizami 10', latitude: 40.3777, longitude: 49.892 }],
    });
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

    it('opens every section without write controls (no create, select, edit, delete or status switch)', async () => {
      await page.goto('/dashboard');
      for (const { path, title } of STAFF_SECTIONS) {
        // Through the side menu, as the operator moves around.
        await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: title, exact: true }).click();
        await waitForPath(page, path);
        await until(() => page.title()).toBe(`${title} · perkdesk`);
        // Wait for the screen itself: its table done loading (the dashboard has several: the first one done is enough).
        await page.getByRole('main').locator('table[aria-busy="false"]').first().waitFor();
        expect(await writeControls(page).count(), `write controls on ${path}`).toBe(0);
      }
      await page.goto('/dashboard');
      await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
      await shot(page, 'role-call-center');
    });

    it('reads the Assets, Human resource and Partners lists and their drawers, and may export, but changes nothing', async () => {
      for (const { spec, row, drawer } of READABLE) {
        const screen = new ListScreen(page, spec);
        await screen.open();
        await screen.row(row).waitFor();
        // The only row tool is View.
        expect(await screen.row(row).getByRole('button').count(), `row tools on ${spec.path}`).toBe(1);
        expect(await screen.tool(row, 'View').count()).toBe(1);
        expect(await writeControls(page).count(), `write controls on ${spec.path}`).toBe(0);
        expect(await screen.button('Export').isVisible(), `export on ${spec.path}`).toBe(true);
        await screen.showFilter();
        await screen.tool(row, 'View').click();
        const details = await openedDialog(page, drawer);
        await until(() => details.locator('dl').innerText()).toContain('Created');
        expect(await details.getByRole('button', { name: /^(Edit|Delete|Save)$/ }).count()).toBe(0);
        await shot(page, `role-call-center-${spec.path.slice(1)}`);
        await page.keyboard.press('Escape');
        await details.waitFor({ state: 'detached' });
      }
      // Exporting is reading: the server hands the operator the file.
      const assets = new ListScreen(page, ASSETS);
      await assets.open();
      const downloads = new DownloadFolder();
      try {
        const exported = await downloads.export(page, assets.button('Export'));
        expect(exported.fileName).toBe('Assets.xlsx');
        expect(exported.data.map((cells) => cells[0])).toEqual(['Caspian Logistics']);
      } finally {
        downloads.remove();
      }
    });
  });
});
