import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Role } from '../support/api';
import { expectAccessible } from '../support/axe';
import { DESKTOP, PHONE, shot } from '../support/browser';
import { checkFitsDesktop, ListScreen, type ScreenSpec } from '../support/listScreen';
import { insertComplaints } from '../support/peopleDb';
import { useSuite } from '../support/suite';
import { openedDialog, overflowsHorizontally, until } from '../support/ui';
import type { Schema } from '../support/contract';

const suite = useSuite({ operator: { email: 'narmin.callcenter@perkdesk.test', firstName: 'Narmin', lastName: 'Valiyeva', password: 'Operator-pass-2026' } });
const COMPLAINTS: ScreenSpec = { path: '/complaints', title: 'Complaints' };

type ComplaintRow = Schema<'ComplaintRow'>;

describe('Complaints: read-only list, cut description, read switch (Call Center too), filter, details, unread count', () => {
  let page: Page;
  let screen: ListScreen;
  const ids: number[] = [];

  const stored = async (id: number) => (await suite.api()).call<ComplaintRow>('GET', `complaint/${id}`);
  const menuItem = (p: Page) => p.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: /^Complaints/ });
  /** What a screen reader reads of the menu item: the icon's own badge is hidden from it. */
  const spokenMenuItem = (p: Page) =>
    menuItem(p).evaluate((link) => {
      const copy = link.cloneNode(true) as HTMLElement;
      copy.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
      return copy.textContent;
    });

  beforeAll(async () => {
    const api = await suite.api();
    await api.setRole(suite.accounts.operator.email, Role.CallCenter);
    ids.push(
      ...insertComplaints(suite.server.dbPath, [
        { fullName: 'Səbinə Hüseynova', email: 'sabina@azersun.test', phone: '994552001122', reasonId: 2, description: 'Kassada endirim tətbiq olunmadı, çek əlimdədir' },
        { fullName: 'Orxan Quliyev', email: 'orxan@bakcell.test', phone: '994703334455', reasonId: 4, description: 'Tətbiq açılmır', isRead: true },
        { fullName: 'Gülnar Şahinova', email: 'gulnar@azersun.test', phone: '994502223344', reasonId: 3, description: 'Ofisiant kobud davrandı və endirimi vermədi' },
      ]),
    );
    page = await suite.signedIn(suite.admin, COMPLAINTS.path);
    screen = new ListScreen(page, COMPLAINTS);
    await screen.loaded();
  });

  beforeEach(() => screen.open());

  it('lists the complaints with the reason, the first 4 words and Read / Unread; the menu counts the unread', async () => {
    await page.getByRole('heading', { name: 'Complaints', level: 1 }).waitFor();
    expect(await screen.headers()).toEqual(['Full name', 'Email', 'Phone number', 'Reason', 'Description', 'Status', 'Record date', 'Actions']);
    await until(() => screen.column('Description')).toEqual(expect.arrayContaining(['Kassada endirim tətbiq olunmadı, ...', 'Tətbiq açılmır', 'Ofisiant kobud davrandı və ...']));
    await screen.row('Səbinə').getByText('Wrong discount amount', { exact: true }).waitFor();
    await screen.row('Səbinə').getByText('Unread', { exact: true }).waitFor();
    await screen.row('Orxan').getByText('Read', { exact: true }).waitFor();
    expect(await page.getByRole('main').getByRole('checkbox').count()).toBe(0);
    expect(await screen.button('Create').count()).toBe(0);
    await until(() => spokenMenuItem(page)).toBe('Complaints2 unread');
    await expectAccessible(page, '/complaints at 1280');
    await checkFitsDesktop(screen, 'complaints-1280');
  });

  it('marks a complaint read and unread: stored, and the menu count follows', async () => {
    await screen.statusSwitch('Gülnar').click();
    await until(() => stored(ids[2]).then((row) => row.isRead)).toBe(true);
    await screen.row('Gülnar').getByText('Read', { exact: true }).waitFor();
    await until(() => spokenMenuItem(page)).toBe('Complaints1 unread');
    await screen.statusSwitch('Gülnar').click();
    await until(() => stored(ids[2]).then((row) => row.isRead)).toBe(false);
    await until(() => spokenMenuItem(page)).toBe('Complaints2 unread');
  });

  it('filters Read / Unread and opens Complaints details with the whole description', async () => {
    await screen.showFilter();
    await screen.filterField('Status').selectOption({ label: 'Read' });
    await screen.shows('Full name', ['Orxan Quliyev']);
    await screen.filterField('Status').selectOption({ label: 'Unread' });
    await until(() => screen.column('Full name')).toEqual(expect.arrayContaining(['Səbinə Hüseynova', 'Gülnar Şahinova']));
    expect((await screen.column('Full name')).length).toBe(2);
    await expectAccessible(page, '/complaints with the filter');
    await screen.tool('Səbinə Hüseynova', 'View').click();
    const drawer = await openedDialog(page, 'Complaints details');
    for (const text of ['Səbinə Hüseynova', 'sabina@azersun.test', '+994 55 200 11 22', 'Wrong discount amount', 'Kassada endirim tətbiq olunmadı, çek əlimdədir', 'Unread']) {
      await drawer.getByText(text, { exact: true }).waitFor();
    }
    await expectAccessible(page, 'Complaints details', drawer);
    await shot(page, 'complaint-details');
    await drawer.getByRole('button', { name: 'Close' }).click();
  });

  it('lets a Call Center operator mark a complaint read, and nothing else', async () => {
    const operator = await suite.signedIn(suite.accounts.operator, COMPLAINTS.path);
    const operatorScreen = new ListScreen(operator, COMPLAINTS);
    await operatorScreen.loaded();
    await operatorScreen.statusSwitch('Səbinə').click();
    await until(() => stored(ids[0]).then((row) => row.isRead)).toBe(true);
    expect(await operator.getByRole('main').getByRole('checkbox').count()).toBe(0);
    expect(await operatorScreen.row('Səbinə').getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')))).toEqual(['View']);
    await operator.context().close();
  });

  it('works at 390 px', async () => {
    await page.setViewportSize(PHONE);
    try {
      await screen.open();
      await until(() => screen.column('Full name')).toContain('Orxan Quliyev');
      expect(await overflowsHorizontally(page)).toBe(false);
      await expectAccessible(page, '/complaints at 390');
      await shot(page, 'complaints-phone');
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });
});
