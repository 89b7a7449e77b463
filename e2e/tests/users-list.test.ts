import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../support/api';
import { DESKTOP, PHONE, shot } from '../support/browser';
import { seedPeople, seedUsers } from '../support/seed';
import { MAIN_ADMIN, useSuite } from '../support/suite';
import { openedDialog, overflowsHorizontally, pathOf, until, waitForPath } from '../support/ui';
import { checkFitsDesktop } from '../support/listScreen';
import { adminOnUsers, UsersScreen } from '../support/usersScreen';

const suite = useSuite();

// The admin (id 1, made by create-admin) and the 24 seeded users (ids 2..25): 25 rows, three pages of ten.
const everyone = [{ ...MAIN_ADMIN, roleId: Role.Admin }, ...seedPeople()];
const newestFirst = [...everyone].reverse().map((person) => person.email);
// The server sorts text in the Azerbaijani alphabet without regard to case (ICU's az collation at
// secondary strength, which Intl.Collator's 'accent' sensitivity is), ties by id (creation order).
const azerbaijani = new Intl.Collator('az', { sensitivity: 'accent' });
const sortedBy = (field: 'firstName' | 'lastName' | 'email', ascending: boolean) =>
  everyone
    .map((person, id) => ({ person, id }))
    .sort((a, b) => (azerbaijani.compare(a.person[field], b.person[field]) || a.id - b.id) * (ascending ? 1 : -1))
    .map(({ person }) => person.email);
const emailsWhere = (test: (person: (typeof everyone)[number]) => boolean) =>
  [...everyone].reverse().filter(test).map((person) => person.email);

describe('the Users list with more than 10 users', () => {
  let page: Page;
  let users: UsersScreen;

  beforeAll(async () => {
    await seedUsers(await suite.api());
    users = await adminOnUsers(suite);
    page = users.page;
  });

  it('shows the first ten of 25 users, newest first, with the spec columns and the pagination', async () => {
    await users.showsEmails(newestFirst.slice(0, 10));
    const headers = (await users.table.locator('thead th').allInnerTexts()).map((text) => text.trim().toLowerCase());
    expect(headers).toEqual(['', 'first name', 'last name', 'email', 'phone number', 'status', 'tools']);
    expect(await users.range()).toBe('1–10 of 25');
    expect(await users.pageButton(3).isVisible()).toBe(true);
    expect(await users.pageButton(1).getAttribute('aria-current')).toBe('page');
    // Phones show grouped (code, then the 7 digits as 3-2-2), not as one run of digits.
    const zaur = await users.row('zaur.kazimov@perkdesk.test').innerText();
    expect(zaur).toContain('55 285 35 53');
    await shot(page, 'users');
  });

  it('fits a 1280 px screen with long e-mails and Azerbaijani names: every column visible, no sideways scroll', async () => {
    const api = await suite.api();
    const long = await api.createUser({
      firstName: 'Gülnarə-Məleykə',
      lastName: 'Məmmədova-Hüseynzadə',
      email: 'gulnara.mammadova-huseynzada@perkdesk-az.test',
      phone: '994553003344',
    });
    try {
      await checkFitsDesktop(users, 'users-1280');
    } finally {
      await api.call('DELETE', 'user', { id: [long.id] });
      await users.open();
    }
  });

  it('moves between pages with the page buttons and Previous/Next, keeping the page in the URL', async () => {
    await users.pageButton(2).click();
    await waitForPath(page, '/users?page=2');
    await users.showsEmails(newestFirst.slice(10, 20));
    expect(await users.range()).toBe('11–20 of 25');

    await users.pagination.getByRole('button', { name: 'Next page' }).click();
    await waitForPath(page, '/users?page=3');
    await users.showsEmails(newestFirst.slice(20));
    expect(await users.pagination.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);

    await users.pagination.getByRole('button', { name: 'Previous page' }).click();
    await waitForPath(page, '/users?page=2');
    await users.showsEmails(newestFirst.slice(10, 20));
  });

  it('offers page sizes 5, 10 and 25, each going back to the first page', async () => {
    const options = await users.pageSize().locator('option').allInnerTexts();
    expect(options).toEqual(['5', '10', '25']);
    expect(await users.pageSize().inputValue()).toBe('10');

    await users.pageSize().selectOption('5');
    await waitForPath(page, '/users?size=5');
    await users.showsEmails(newestFirst.slice(0, 5));
    expect(await users.range()).toBe('1–5 of 25');
    expect(await users.pageButton(5).isVisible()).toBe(true);

    await users.pageSize().selectOption('25');
    await waitForPath(page, '/users?size=25');
    await users.showsEmails(newestFirst);
    expect(await users.range()).toBe('1–25 of 25');
    await shot(page, 'users-size-25');

    await users.pageSize().selectOption('10');
    await waitForPath(page, '/users');
    await users.showsEmails(newestFirst.slice(0, 10));
  });

  it('sorts by a header click, toggling ascending and descending, back on page 1 with size 10', async () => {
    await users.open('?page=3&size=5');
    await users.showsEmails(newestFirst.slice(10, 15));

    await users.sortBy('First name').click();
    await waitForPath(page, '/users?sort=firstName&order=asc');
    await users.showsEmails(sortedBy('firstName', true).slice(0, 10));
    expect(await users.table.locator('th[aria-sort$="scending"]').innerText()).toMatch(/first name/i);
    expect(await users.table.locator('th[aria-sort$="scending"]').getAttribute('aria-sort')).toBe('ascending');
    await shot(page, 'users-sorted');

    await users.sortBy('First name').click();
    await waitForPath(page, '/users?sort=firstName&order=desc');
    await users.showsEmails(sortedBy('firstName', false).slice(0, 10));
    expect(await users.table.locator('th[aria-sort$="scending"]').getAttribute('aria-sort')).toBe('descending');

    // Another column, from a later page and another size: page 1, size 10 again.
    await users.pageSize().selectOption('5');
    await users.pageButton(2).click();
    await waitForPath(page, '/users?page=2&size=5&sort=firstName&order=desc');
    await users.sortBy('Email').click();
    await waitForPath(page, '/users?sort=email&order=asc');
    await users.showsEmails(sortedBy('email', true).slice(0, 10));
    await users.sortBy('Last name').click();
    await waitForPath(page, '/users?sort=lastName&order=asc');
    await users.showsEmails(sortedBy('lastName', true).slice(0, 10));
  });

  it('sorts every column except Tools, the phone by its digits', async () => {
    expect(await users.sortBy('Tools').count()).toBe(0);
    for (const column of ['First name', 'Last name', 'Email', 'Phone number', 'Status']) {
      await users.sortBy(column).click();
      await until(() => users.table.locator('th[aria-sort$="scending"]').innerText()).toMatch(new RegExp(column, 'i'));
      await until(() => users.emails().then((emails) => emails.length), 10_000).toBe(10);
    }
    await waitForPath(page, '/users?sort=isActive&order=asc');
    await users.open('?sort=phone&order=asc');
    // The admin has no phone; the others sort by their 994... digits.
    const byPhone = [MAIN_ADMIN.email, ...seedPeople().sort((a, b) => (a.phone! < b.phone! ? -1 : 1)).map((person) => person.email)];
    await users.showsEmails(byPhone.slice(0, 10));
  });

  it('steps back to the last page when the page in the URL is past the end', async () => {
    await users.open('?page=99');
    await waitForPath(page, '/users?page=3');
    await users.showsEmails(newestFirst.slice(20));
  });

  it('shows and hides the filter panel with the Show filter / Hide filter switch', async () => {
    await users.open();
    expect(await users.filterPanel.count()).toBe(0);
    await users.button('Show filter').click();
    await users.filterPanel.waitFor();
    for (const label of ['First name', 'Last name', 'Email', 'Role']) {
      expect(await users.filterField(label).isVisible(), label).toBe(true);
    }
    expect(await users.filterField('Role').locator('option').allInnerTexts()).toEqual(['All', 'Admin', 'User', 'Call Center']);
    await shot(page, 'users-filter');
    await users.button('Hide filter').click();
    await users.filterPanel.waitFor({ state: 'detached' });
    expect(await users.button('Show filter').isVisible()).toBe(true);
  });

  it('narrows the list after a pause in typing and returns to page 1', async () => {
    await users.open('?page=2');
    await users.button('Show filter').click();
    await users.filterField('First name').pressSequentially('vi', { delay: 40 });
    // Timed from before the last key is pressed: under load the browser may take the key well
    // before the press is confirmed here, and the pause runs from the browser's moment.
    const lastKey = Date.now();
    await users.filterField('First name').press('n');
    await waitForPath(page, '/users?firstName=vin');
    expect(Date.now() - lastKey, 'the filter waits for a pause in typing').toBeGreaterThanOrEqual(400);
    await users.showsEmails(emailsWhere((person) => person.firstName.toLowerCase().includes('vin')));
    // Two rows: no pagination (it shows only above 10).
    expect(await users.pagination.count()).toBe(0);

    await users.filterField('First name').fill('');
    await users.filterField('Last name').pressSequentially('Hasanov');
    await waitForPath(page, '/users?lastName=Hasanov');
    await users.showsEmails(emailsWhere((person) => person.lastName.includes('Hasanov')));
    await users.filterField('Email').pressSequentially('jale');
    await waitForPath(page, '/users?lastName=Hasanov&email=jale');
    await users.showsEmails(['jale.hasanova@perkdesk.test']);
  });

  it('filters by role: All, Admin, User, Call Center', async () => {
    await users.open();
    await users.button('Show filter').click();
    await users.filterField('Role').selectOption({ label: 'Call Center' });
    await waitForPath(page, '/users?roleId=2');
    await users.showsEmails(emailsWhere((person) => person.roleId === Role.CallCenter));
    expect(await users.pagination.count()).toBe(0);
    await shot(page, 'users-filter-role');

    await users.filterField('Role').selectOption({ label: 'Admin' });
    await waitForPath(page, '/users?roleId=0');
    await users.showsEmails([MAIN_ADMIN.email]);

    await users.filterField('Role').selectOption({ label: 'User' });
    await waitForPath(page, '/users?roleId=1');
    await until(() => users.range()).toBe(`1–10 of ${emailsWhere((person) => person.roleId === Role.User).length}`);

    await users.filterField('Role').selectOption({ label: 'All' });
    await waitForPath(page, '/users');
    await users.showsEmails(newestFirst.slice(0, 10));
  });

  it('shows "No information found" when nothing matches', async () => {
    await users.open('?email=nobody-here');
    await until(() => users.message()).toBe('No information found');
    expect(await users.pagination.count()).toBe(0);
    // The filter in the URL opens the panel with its value.
    expect(await users.filterField('Email').inputValue()).toBe('nobody-here');
    await shot(page, 'users-empty');
  });

  it("shows a spinner while the list loads, and \"We've lost the connection\" when it cannot load", async () => {
    // Hold the next list answer back: the empty table shows the spinner until it arrives.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/user/filter?*', async (route) => {
      await held;
      await route.continue();
    });
    try {
      await page.goto('/users?firstName=ayd');
      await users.table.getByRole('status', { name: 'Loading…' }).waitFor();
      await shot(page, 'users-loading');
      release();
      await users.showsEmails(['aydan.aliyeva@perkdesk.test']);
    } finally {
      await page.unroute('**/api/user/filter?*');
    }

    // The network fails: the table says so, and the app keeps the session.
    await page.route('**/api/user/filter?*', (route) => route.abort('internetdisconnected'));
    try {
      await users.filterField('First name').fill('ayse');
      await until(() => users.message()).toBe("We've lost the connection");
      await shot(page, 'users-connection-lost');
    } finally {
      await page.unroute('**/api/user/filter?*');
    }
    await users.filterField('First name').fill('aydan');
    await users.showsEmails(['aydan.aliyeva@perkdesk.test']);
  });

  it('keeps page, size, sort and filter in the URL across a reload and the back button', async () => {
    await users.open();
    await users.sortBy('Email').click();
    await waitForPath(page, '/users?sort=email&order=asc');
    await users.pageSize().selectOption('5');
    await users.pageButton(2).click();
    await users.pageButton(3).click();
    await waitForPath(page, '/users?page=3&size=5&sort=email&order=asc');
    await users.showsEmails(sortedBy('email', true).slice(10, 15));

    await page.reload();
    await users.showsEmails(sortedBy('email', true).slice(10, 15));
    expect(await users.range()).toBe('11–15 of 25');
    expect(await users.pageSize().inputValue()).toBe('5');
    expect(await users.table.locator('th[aria-sort$="scending"]').getAttribute('aria-sort')).toBe('ascending');

    await users.button('Show filter').click();
    await users.filterField('Last name').pressSequentially('ova');
    await waitForPath(page, '/users?size=5&sort=email&order=asc&lastName=ova');
    const women = sortedBy('email', true).filter((email) => everyone.find((p) => p.email === email)?.lastName.endsWith('ova'));
    await users.showsEmails(women.slice(0, 5));

    await page.reload();
    await users.showsEmails(women.slice(0, 5));
    expect(await users.filterField('Last name').inputValue()).toBe('ova');

    await page.goBack();
    await waitForPath(page, '/users?page=3&size=5&sort=email&order=asc');
    await users.showsEmails(sortedBy('email', true).slice(10, 15));
    await page.goBack();
    await waitForPath(page, '/users?page=2&size=5&sort=email&order=asc');
    await users.showsEmails(sortedBy('email', true).slice(5, 10));
    await page.goForward();
    await waitForPath(page, '/users?page=3&size=5&sort=email&order=asc');
    await users.showsEmails(sortedBy('email', true).slice(10, 15));
  });

  it('shows "N selected" and Delete while rows are selected, hiding Create, Export and the filter switch', async () => {
    await users.open();
    await users.showsEmails(newestFirst.slice(0, 10));
    for (const name of ['Create', 'Export', 'Show filter']) expect(await users.button(name).isVisible(), name).toBe(true);

    await users.rowCheckbox(newestFirst[0]).check();
    await users.rowCheckbox(newestFirst[1]).check();
    await users.toolbar.getByText('2 selected').waitFor();
    expect(await users.button('Delete').isVisible()).toBe(true);
    for (const name of ['Create', 'Export', 'Show filter']) expect(await users.button(name).count(), name).toBe(0);
    await shot(page, 'users-selected');

    const selectAll = users.table.getByRole('checkbox', { name: 'Select all rows' });
    await selectAll.check();
    await users.toolbar.getByText('10 selected').waitFor();
    await selectAll.uncheck();
    await users.button('Create').waitFor();
    expect(await users.toolbar.getByText(/selected/).count()).toBe(0);
  });

  it('bulk deletes the selected rows after "Are you sure to delete?"', async () => {
    const [first, second] = newestFirst;
    await users.rowCheckbox(first).check();
    await users.rowCheckbox(second).check();
    await users.button('Delete').click();
    let confirm = await openedDialog(page, 'Delete');
    expect(await confirm.getByText('Are you sure to delete?').isVisible()).toBe(true);
    await shot(page, 'users-delete-confirm');

    // No keeps everything.
    await confirm.getByRole('button', { name: 'No' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await users.emails()).toContain(first);

    await users.button('Delete').click();
    confirm = await openedDialog(page, 'Delete');
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await confirm.waitFor({ state: 'detached' });
    await users.showsEmails(newestFirst.slice(2, 12));
    expect(await users.range()).toBe('1–10 of 23');
    await users.button('Create').waitFor();

    const api = await suite.api();
    expect((await api.usersWhere({ Email: first })).totalCount).toBe(0);
    expect((await api.usersWhere({ Email: second })).totalCount).toBe(0);
  });

  it('keeps the page from scrolling sideways on a phone (390 px)', async () => {
    await page.setViewportSize(PHONE);
    try {
      await users.open();
      await users.showsEmails(newestFirst.slice(2, 12));
      expect(await overflowsHorizontally(page), 'the page scrolls sideways at 390 px').toBe(false);
      expect(await users.button('Create').isVisible()).toBe(true);
      await shot(page, 'users-phone');
      expect(pathOf(page)).toBe('/users');
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });
});
