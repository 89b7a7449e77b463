import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, shot, TABLET } from '../support/browser';
import { createCampaign, createCategory } from '../support/campaignsApi';
import { PictureFolder, pngBytes } from '../support/images';
import { ListScreen, type ScreenSpec } from '../support/listScreen';
import { insertComplaints } from '../support/peopleDb';
import { useSuite } from '../support/suite';
import { openedDialog, overflowsHorizontally, until } from '../support/ui';

/**
 * What a careful walk of every screen found (issue 21), each checked as a person meets it: the
 * headers' names, a picker's message, focus after a menu choice, the row tools' places, the icon
 * menu's badge, the dashboard's line, a fake image, the action bar and the phone's row tools.
 */
const suite = useSuite();
const CAMPAIGNS: ScreenSpec = { path: '/campaigns', title: 'Campaigns' };

/** Every list screen of the panel, by its path. */
const LIST_PATHS = [
  '/users',
  '/employeelist',
  '/campaigns',
  '/categorynames',
  '/assets',
  '/humanresource',
  '/partners',
  '/merchants',
  '/expectedcampaigns',
  '/promocode',
  '/complaints',
  '/usagehistory',
  '/notifications',
  '/requests',
  '/by-merchant',
  '/api-clients',
  '/reports',
];

const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });

async function describedByText(field: Locator): Promise<string> {
  return field.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent?.trim() ?? '')
      .join(' '),
  );
}

describe('the walk of every screen', () => {
  let page: Page;
  const pictures = new PictureFolder();
  const names = { sent: 'Bildiriş göndərilib', waiting: 'Bildiriş gözləyir' };

  beforeAll(async () => {
    const client = await suite.api();
    const png = (r: number) => pngBytes(32, [r, 90, 160], [255, 255, 255]);
    const partner = await client.createPartner(
      {
        name: 'Nar Market',
        contactPersonFirstName: 'Rəşad',
        contactPersonLastName: 'Əliyev',
        phoneNumber: '994503334455',
        email: 'resad@nar.test',
        cities: [{ cityId: 1, address: 'Füzuli 3', latitude: 40.38, longitude: 49.85 }],
      },
      png(40),
    );
    const category = await createCategory(client, { nameAz: 'Texnika', nameEn: 'Tech', nameRu: 'Техника' }, png(80));
    const campaign = (nameAz: string) =>
      createCampaign(client, { partnerId: partner.id, campaignCategoryId: category.id, discountPercent: 15, nameAz, nameEn: nameAz, nameRu: nameAz }, png(20), png(200));
    const sent = await campaign(names.sent);
    await campaign(names.waiting);
    await client.call('PUT', 'campaign/changeNotificationStatus', { id: sent.id, text: 'Endirim başladı' });
    insertComplaints(suite.server.dbPath, [{ fullName: 'Aynur Məmmədova', email: 'aynur@nar.test', phone: '994552223344', reasonId: 2, description: 'Endirim tətbiq olunmadı' }]);
    page = await suite.signedIn(suite.admin, '/users');
    await new ListScreen(page, { path: '/users', title: 'Users' }).loaded();
  });

  it('names every column header by its visible label on every list screen, with aria-sort on the sortable ones', async () => {
    for (const path of LIST_PATHS) {
      await page.goto(path);
      // Until the screen's calls are answered: a table drawn with the answer (the chart's data
      // table on /reports) can come before the list's, and the headers read from one were then
      // looked for in the other.
      await page.waitForLoadState('networkidle');
      const table = page.getByRole('main').locator('table').first();
      await table.locator('thead th').first().waitFor();
      const headers = await table.locator('thead th').evaluateAll((cells) =>
        cells
          // A column a narrow card leaves out is not shown, and not in the accessibility tree.
          .filter((cell) => (cell as HTMLElement).offsetWidth > 0)
          .map((cell) => ({ text: (cell as HTMLElement).innerText.trim(), sortable: cell.querySelector('button') !== null, sort: cell.getAttribute('aria-sort') })),
      );
      for (const header of headers.filter((cell) => cell.text)) {
        expect(await table.getByRole('columnheader', { name: header.text, exact: true }).count(), `${path}: the header "${header.text}"`).toBeGreaterThan(0);
        if (header.sortable) expect(header.sort, `${path}: aria-sort on "${header.text}"`).toMatch(/^(none|ascending|descending)$/);
      }
      expect(await table.getByRole('columnheader', { name: /^Sort by/ }).count(), `${path}: no header is named "Sort by ..."`).toBe(0);
    }
  });

  it('moves focus to the new screen after a choice in the side menu, a few Tabs from its Create button', async () => {
    await page.goto('/users');
    await menu(page).getByRole('link', { name: 'Category names' }).click();
    await page.getByRole('main').getByRole('heading', { name: 'Category names', level: 1 }).waitFor();
    await until(() => page.evaluate(() => document.activeElement?.id)).toBe('main-content');
    let presses = 0;
    while (presses < 6) {
      await page.keyboard.press('Tab');
      presses += 1;
      const focused = await page.evaluate(() => document.activeElement?.textContent?.trim());
      if (focused === 'Create') break;
    }
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim()), `Create after ${presses} Tabs`).toBe('Create');
  });

  it("ties a server-loaded picker's message to it, and saves both assets picked just before Save", async () => {
    await page.goto(CAMPAIGNS.path);
    const screen = new ListScreen(page, CAMPAIGNS);
    await screen.loaded();
    await screen.button('Create').click();
    const form = await screen.form('Create Campaign');
    await form.save().click();
    const partner = form.root.getByRole('combobox', { name: 'Partner' });
    await form.message('Partner is required').first().waitFor();
    expect(await partner.getAttribute('aria-invalid')).toBe('true');
    expect(await describedByText(partner)).toContain('Partner is required');
    await form.cancel();
  });

  it('keeps each row tool at its place on Campaigns, whether or not the row offers every tool', async () => {
    await page.goto(CAMPAIGNS.path);
    const screen = new ListScreen(page, CAMPAIGNS);
    await screen.row(names.waiting).waitFor();
    expect(await screen.tool(names.sent, 'Send notification').count()).toBe(0);
    expect(await screen.tool(names.waiting, 'Send notification').count()).toBe(1);
    const x = async (row: string, tool: string) => (await screen.tool(row, tool).boundingBox())?.x;
    for (const tool of ['View', 'Edit', 'Delete']) expect(await x(names.sent, tool), tool).toBe(await x(names.waiting, tool));
  });

  it('shows the unread count on the icon-only menu at 1024 px, and no two items share an icon', async () => {
    await page.setViewportSize(TABLET);
    await page.goto('/users');
    const complaints = menu(page).getByRole('link', { name: /^Complaints/ });
    const badge = complaints.locator('[data-icon-badge]');
    await badge.waitFor();
    expect(await badge.isVisible()).toBe(true);
    expect(await badge.innerText()).toBe('1');
    const icons = await menu(page)
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => link.querySelector('svg path')?.getAttribute('d') ?? ''));
    expect(new Set(icons).size, 'one icon per menu item').toBe(icons.length);
    await shot(page, 'walk-icon-menu-1024');
    await page.setViewportSize(DESKTOP);
  });

  it('spaces and aligns the menu group headings like its items at 1280 px', async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/users');
    const nav = menu(page);
    const heading = await nav.getByText('Requests', { exact: true }).boundingBox();
    const icon = await nav.getByRole('link', { name: 'Reports' }).locator('svg').boundingBox();
    const previous = await nav.getByRole('link', { name: 'Reports' }).boundingBox();
    expect(heading && icon && previous).toBeTruthy();
    expect(Math.abs(heading!.x - icon!.x), 'the heading starts where the icons of the items do').toBeLessThan(1.5);
    expect(heading!.y - (previous!.y + previous!.height), 'space above the heading').toBeGreaterThanOrEqual(16);
  });

  it("ends the dashboard's monthly line at the current month", async () => {
    await page.goto('/dashboard');
    const line = page.getByRole('figure', { name: /^Usage history by month/ });
    await line.getByRole('button', { name: 'Show the numbers as a table' }).click();
    const values = await line.locator('table tbody tr td').allInnerTexts();
    const now = new Date();
    expect(values).toHaveLength(12);
    for (const [index, value] of values.entries()) {
      // UTC months, as the server's (the browser is in Baku, four hours ahead).
      if (index > now.getUTCMonth()) expect(value, `month ${index + 1} has not happened yet`).toBe('');
      else expect(value, `month ${index + 1}`).toMatch(/^\d/);
    }
  });

  it('refuses a file that is not a decodable image when it is chosen', async () => {
    await page.goto('/partners');
    const screen = new ListScreen(page, { path: '/partners', title: 'Partners' });
    await screen.loaded();
    await screen.button('Create').click();
    const form = await screen.form('Create Partner');
    await form.chooseImage(pictures.fakePng);
    await form.message('Only PNG, JPEG, WebP or GIF images are accepted.').waitFor();
    expect(await form.preview().count(), 'no preview of the refused file').toBe(0);
    await form.chooseImage(pictures.logo);
    await form.preview().waitFor();
    expect(await form.message('Only PNG, JPEG, WebP or GIF images are accepted.').count()).toBe(0);
    await form.cancel();
  });

  it('ends the side panel with its action bar: no strip of the form shows beneath it', async () => {
    await page.goto(CAMPAIGNS.path);
    const screen = new ListScreen(page, CAMPAIGNS);
    await screen.loaded();
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await screen.button('Create').click();
      const form = await screen.form('Create Campaign');
      const panel = await page.locator('[data-side-panel]').boundingBox();
      const bar = await form.save().evaluate((button) => button.parentElement?.getBoundingClientRect().bottom ?? 0);
      expect(panel, 'the panel').not.toBeNull();
      expect(Math.abs(bar - (panel!.y + panel!.height)), `the bar at the panel's bottom at ${viewport.width} px`).toBeLessThan(1.5);
      await form.cancel();
    }
    await page.setViewportSize(DESKTOP);
  });

  it("reaches every row tool at 390 px without scrolling sideways", async () => {
    await page.setViewportSize(PHONE);
    await page.goto(CAMPAIGNS.path);
    const screen = new ListScreen(page, CAMPAIGNS);
    await screen.row(names.waiting).waitFor();
    for (const tool of ['View', 'Edit', 'Send notification', 'Delete']) {
      const box = await screen.tool(names.waiting, tool).boundingBox();
      expect(box, tool).not.toBeNull();
      expect(box!.x + box!.width, `${tool} within the window`).toBeLessThanOrEqual(PHONE.width);
    }
    expect(await overflowsHorizontally(page)).toBe(false);
    await shot(page, 'walk-campaigns-390');
    await screen.tool(names.waiting, 'Delete').click();
    await openedDialog(page, 'Delete');
    await page.keyboard.press('Escape');
    await page.setViewportSize(DESKTOP);
  });
});
