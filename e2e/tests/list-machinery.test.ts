import type { Locator, Page, Response as HttpResponse } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, shot, TABLET } from '../support/browser';
import { ListScreen, PARTNERS, USERS, type FormDialog } from '../support/listScreen';
import { seedUsers } from '../support/seed';
import { useSuite } from '../support/suite';
import { expectAccessible } from '../support/axe';
import { openedDialog, reachable, until } from '../support/ui';

/**
 * The shared list, dialog and layout machinery (issue 11) on Users and on a
 * multipart screen (Partners), at 1280, 1024 and 390 px: what every later
 * screen inherits.
 */
const suite = useSuite();
const WIDTHS = [DESKTOP, TABLET, PHONE];

beforeAll(async () => {
  const api = await suite.api();
  await seedUsers(api);
  for (const [index, name] of ['Alma Kafe', 'Bravo Market', 'Çay Evi'].entries()) {
    await api.createPartner({
      name,
      contactPersonFirstName: 'Elvin',
      contactPersonLastName: `Quliyev${index}`,
      phoneNumber: `99450111223${index}`,
      email: `partner${index}@market.test`,
      cities: [{ cityId: 1, address: `Nizami küç. ${index + 1}`, latitude: 40.41, longitude: 49.87 }],
    });
  }
});

/**
 * A new tab on `path` in the browser context where the Admin signed in, through the sign-in
 * screen, the first time one was asked for. Every sign-in spends a TOTP step, the server takes
 * two a half minute, and a sign-in per block had this file wait 75 s for the clock. The tabs
 * share the session and the stored column choices, as a user's tabs do; each block still starts
 * on a page of its own.
 */
let signedInPage: Page | undefined;
async function signedInTab(path: string): Promise<Page> {
  if (!signedInPage) {
    signedInPage = await suite.signedIn(suite.admin, path);
    return signedInPage;
  }
  const page = await signedInPage.context().newPage();
  await page.goto(path);
  return page;
}

/** The toast region's current text. */
const toasts = (page: Page) => page.getByRole('status', { name: 'Confirmations' });

/** Is everything behind the open dialog inert and hidden from assistive technology? */
function backgroundInert(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const main = document.getElementById('main-content');
    return Boolean(main?.closest('[inert]')) && Boolean(main?.closest('[aria-hidden="true"], [inert]'));
  });
}

/** The accessible name of the focused element. */
function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element) return '';
    const label = element.getAttribute('aria-label') ?? (element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : null);
    return (label ?? element.textContent ?? '').trim();
  });
}

/** Each header's left edge and whether it wraps (taller than one line). */
function headerLayout(table: Locator): Promise<{ text: string; left: number; width: number; lines: number }[]> {
  return table.evaluate((element) =>
    [...element.querySelectorAll('thead th')]
      .filter((th) => (th as HTMLElement).offsetParent !== null)
      .map((th) => {
        const box = th.getBoundingClientRect();
        const style = getComputedStyle(th);
        const content = box.height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
        return { text: th.textContent?.trim() ?? '', left: Math.round(box.left), width: Math.round(box.width), lines: Math.round(content / parseFloat(style.lineHeight)) };
      }),
  );
}

describe.each(WIDTHS.map((viewport) => [viewport.width, viewport] as const))('at %i px', (width, viewport) => {
  let page: Page;
  beforeAll(async () => {
    page = await signedInTab('/users');
    await page.setViewportSize(viewport);
  });

  it('the side menu gives the table the room: labels from 1280 px, icons below, a drawer on a phone', async () => {
    const users = new ListScreen(page, USERS);
    await users.open();
    const aside = page.locator('aside');
    if (width >= 1280) {
      expect((await aside.boundingBox())?.width).toBe(256);
      expect(await aside.getByText('Partners', { exact: true }).isVisible()).toBe(true);
    } else if (width >= 1024) {
      expect((await aside.boundingBox())?.width).toBe(80);
      // Still named for assistive technology, and on hover.
      expect(await aside.getByRole('link', { name: 'Partners' }).getAttribute('title')).toBe('Partners');
    } else {
      expect(await aside.isVisible()).toBe(false);
      expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(true);
    }
  });

  for (const spec of [USERS, PARTNERS]) {
    it(`${spec.title}: the table fits or says it scrolls; headers on one line; Create in reach; the total shown`, async () => {
      const screen = new ListScreen(page, spec);
      await screen.open();
      const layout = await screen.table.evaluate((table) => {
        const scroller = table.parentElement as HTMLElement;
        return { overflow: scroller.scrollWidth > scroller.clientWidth + 1 };
      });
      if (width >= 1024) expect(layout.overflow, `${spec.path} scrolls sideways at ${width} px`).toBe(false);
      const hint = page.getByText('Scroll sideways to see every column');
      expect(await hint.isVisible(), 'the sideways hint shows exactly when the table scrolls').toBe(layout.overflow);
      for (const header of await headerLayout(screen.table)) expect(header.lines, `"${header.text}" wraps at ${width} px`).toBeLessThanOrEqual(1);
      expect(await reachable(page, screen.button('Create')), 'Create can be reached').toBe(true);
      expect(await screen.total()).toMatch(spec === USERS ? /^25 users$/ : /^3 partners$/);
      // The actions column does not cover the Status column.
      const status = await screen.table.locator('thead th', { hasText: 'Status' }).boundingBox();
      const actions = await screen.table.locator('thead th').last().boundingBox();
      if (width >= 1024 && status && actions) expect(status.x + status.width).toBeLessThanOrEqual(actions.x + 0.5);
      await shot(page, `machinery-${spec.path.slice(1)}-${width}`);
    });
  }

  it('Users: column widths stay put while a filter is typed and a page changes; headers never wrap when nothing is found', async () => {
    const users = new ListScreen(page, USERS);
    await users.open();
    const before = await headerLayout(users.table);
    await users.pageButton(3).click();
    await users.loaded();
    // From md up the widths come from the declarations; on a phone the table scrolls and each column takes its content.
    if (width >= 1024) expect(await headerLayout(users.table), 'after a page change').toEqual(before);
    await users.showFilter();
    await users.filterField('Email').pressSequentially('zzz-nobody');
    await until(() => users.message()).toBe('No information found');
    const empty = await headerLayout(users.table);
    for (const header of empty) expect(header.lines, `"${header.text}" wraps in the empty state`).toBeLessThanOrEqual(1);
    if (width >= 1024) expect(empty.map((header) => header.left)).toEqual(before.map((header) => header.left));
    // The empty state offers Clear filters, and the switch counts the hidden filter.
    await users.filterSwitch().click();
    expect(await users.filterSwitch().innerText()).toMatch(/Show filter\s*1/);
    expect(await users.filterSwitch().getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('list', { name: 'Applied filters' }).innerText()).toContain('Email: zzz-nobody');
    await shot(page, `machinery-users-empty-${width}`);
    await users.table.getByRole('button', { name: 'Clear filters' }).click();
    await until(() => users.total()).toBe('25 users');
    expect(await page.getByRole('list', { name: 'Applied filters' }).count()).toBe(0);
  });
});

describe('lists that tell the truth (Users, 1280 px)', () => {
  let page: Page;
  let users: ListScreen;
  beforeAll(async () => {
    page = await signedInTab('/users');
    users = new ListScreen(page, USERS);
    await users.loaded();
  });

  it('a chip removes its filter; Clear filters removes them all', async () => {
    await users.open('?firstName=a&roleId=2');
    expect(await users.filterSwitch().innerText()).toMatch(/2/);
    await page.getByRole('button', { name: 'Remove filter Role: Call Center' }).click();
    await until(() => page.url()).toMatch(/\/users\?firstName=a$/);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await until(() => users.total()).toBe('25 users');
  });

  it('a page seen again is asked for with its ETag: the server answers 304 and the same rows show', async () => {
    const statuses: number[] = [];
    const listen = (response: HttpResponse) => {
      if (/\/api\/user(\/filter)?\?/.test(response.url())) statuses.push(response.status());
    };
    page.on('response', listen);
    try {
      await users.open();
      await until(() => users.rows.count()).toBe(10);
      const rows = await users.rows.allInnerTexts();
      await users.pagination.getByRole('button', { name: 'Next page' }).click();
      await until(() => users.rows.allInnerTexts()).not.toEqual(rows);
      // Back to the first page, within the app: the tab kept it and asks whether it changed.
      await users.pagination.getByRole('button', { name: 'Previous page' }).click();
      await until(() => users.rows.allInnerTexts()).toEqual(rows);
      await until(() => statuses).toContain(304);
      expect(statuses[0]).toBe(200);
    } finally {
      page.off('response', listen);
    }
  });

  it('the Columns button hides a column, the choice survives a reload, and brings back what a phone hides', async () => {
    const headers = async () => (await headerLayout(users.table)).map((header) => header.text);
    await users.open();
    expect(await headers()).toEqual(['', 'First name', 'Last name', 'Email', 'Phone number', 'Status', 'Tools']);
    await page.getByRole('button', { name: 'Columns' }).click();
    const chooser = page.getByRole('group', { name: 'Show columns' });
    await expectAccessible(page, 'the column chooser at 1280');
    await chooser.getByRole('checkbox', { name: 'Email' }).uncheck();
    await until(headers).toEqual(['', 'First name', 'Last name', 'Phone number', 'Status', 'Tools']);
    await shot(page, 'column-chooser-1280');
    await page.keyboard.press('Escape');
    await page.reload();
    await users.loaded();
    await until(headers).toEqual(['', 'First name', 'Last name', 'Phone number', 'Status', 'Tools']);

    // On a phone the chooser says which columns the width hides and brings one back.
    await page.setViewportSize(PHONE);
    try {
      await users.open();
      await page.getByRole('button', { name: /^Columns/ }).click();
      const phone = page.getByRole('group', { name: 'Show columns' }).getByRole('checkbox', { name: 'Phone number' });
      expect(await phone.isChecked()).toBe(false);
      await page.getByRole('group', { name: 'Show columns' }).getByText('Hidden at this width').first().waitFor();
      await phone.check();
      await until(headers).toContain('Phone number');
      await shot(page, 'column-chooser-390');
      await page.getByRole('button', { name: 'Reset columns' }).click();
      await page.keyboard.press('Escape');
    } finally {
      await page.setViewportSize(DESKTOP);
    }
    await users.open();
    await until(headers).toEqual(['', 'First name', 'Last name', 'Email', 'Phone number', 'Status', 'Tools']);
  });

  it('the connection-lost state offers Retry, which loads the list again', async () => {
    await page.route('**/api/user?*', (route) => route.abort());
    try {
      await users.open('?page=2');
      await until(() => users.message()).toBe("We've lost the connection");
    } finally {
      await page.unroute('**/api/user?*');
    }
    await users.table.getByRole('button', { name: 'Retry' }).click();
    await until(() => users.rows.count()).toBe(10);
  });

  it('the selection survives a page change; a delete names what goes; a filter change clears it and says so', async () => {
    await users.open();
    // The panel stays open while rows are chosen (the switch itself hides then).
    await users.showFilter();
    await users.rowCheckbox('zaur.kazimov@perkdesk.test').check();
    await users.rowCheckbox('yusif.mirzayev@perkdesk.test').check();
    await users.pageButton(2).click();
    await users.loaded();
    await users.rows.nth(0).getByRole('checkbox').check();
    expect(await users.toolbar.getByText('3 selected').isVisible()).toBe(true);
    await users.pageButton(1).click();
    expect(await users.rowCheckbox('zaur.kazimov@perkdesk.test').isChecked()).toBe(true);
    await users.button('Delete').click();
    const confirm = await openedDialog(page, 'Delete');
    expect(await confirm.innerText()).toContain('Delete 3 users?');
    expect(await confirm.innerText()).toContain('Are you sure to delete?');
    await confirm.getByRole('button', { name: 'No' }).click();
    await users.filterField('First name').fill('z');
    await until(() => toasts(page).innerText()).toContain('Selection cleared: the filter changed');
    expect(await users.toolbar.getByText(/selected/).count()).toBe(0);
  });

  it("the own row's status switch and Delete are disabled and say why", async () => {
    await users.open(`?email=${encodeURIComponent(suite.admin.email)}`);
    const own = users.row(suite.admin.email);
    await own.waitFor();
    const status = users.statusSwitch(suite.admin.email);
    expect(await status.isDisabled()).toBe(true);
    expect(await status.getAttribute('aria-description')).toBe('You cannot deactivate your own account');
    const remove = users.tool(suite.admin.email, 'Delete');
    expect(await remove.isDisabled()).toBe(true);
    expect(await remove.locator('..').getAttribute('title')).toBe('You cannot delete your own account');
    expect(await users.rowCheckbox(suite.admin.email).isDisabled()).toBe(true);
  });
});

describe('dialogs (Users and Partners, 1280 px)', () => {
  let page: Page;
  beforeAll(async () => {
    page = await signedInTab('/users');
  });

  for (const [tool, title] of [
    ['Edit', 'Edit'],
    ['Change Password', 'Change Password'],
    ['QR code', 'QR code'],
    ['View', 'User details'],
    ['Delete', 'Delete'],
  ] as const) {
    it(`${tool}: the page behind is inert and hidden; focus goes in, and back to ${tool} on close`, async () => {
      const users = new ListScreen(page, USERS);
      await users.open('?email=aydan.aliyeva');
      const opener = users.tool('aydan.aliyeva@perkdesk.test', tool);
      await opener.click();
      await openedDialog(page, title);
      await until(() => backgroundInert(page)).toBe(true);
      if (tool === 'Edit') await until(() => focusedName(page)).toBe('First name');
      if (tool === 'Change Password') await until(() => focusedName(page)).toBe('Your password');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await until(() => opener.evaluate((element) => element === document.activeElement)).toBe(true);
      expect(await backgroundInert(page)).toBe(false);
    });
  }

  it('a form taller than the window keeps its title, Close and Save/Cancel in view while the body scrolls', async () => {
    await page.setViewportSize({ width: 1280, height: 520 });
    try {
      const partners = new ListScreen(page, PARTNERS);
      await partners.open();
      await partners.button('Create').click();
      const form = await partners.form('Create Partner');
      await until(() => focusedName(page)).toBe('Partner name');
      const inView = async (target: Locator) => {
        const box = await target.boundingBox();
        return box !== null && box.y >= 0 && box.y + box.height <= 520;
      };
      for (const scroll of [0, 10_000]) {
        await form.root.locator('[data-dialog-body]').evaluate((body, top) => body.scrollTo(0, top), scroll);
        for (const control of [form.root.getByRole('heading', { name: 'Create Partner' }), form.root.getByRole('button', { name: 'Close' }), form.save(), form.root.getByRole('button', { name: 'Cancel' })]) {
          expect(await inView(control), `in view with the body scrolled to ${scroll}`).toBe(true);
        }
      }
      await shot(page, 'machinery-partner-create-short-window');
      await form.cancel();
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it("a taken e-mail is said once, under Email, not also in the form's alert", async () => {
    const users = new ListScreen(page, USERS);
    await users.open();
    await users.button('Create').click();
    const form: FormDialog = await users.form('Create User');
    await form.field('First name').fill('Aydan');
    await form.field('Last name').fill('Aliyeva');
    await form.field('Email').fill('aydan.aliyeva@perkdesk.test');
    await form.field('Password').fill('Strong-pass-1');
    await form.field('Confirm Password').fill('Strong-pass-1');
    await form.save().click();
    await form.message('A user with this e-mail already exists.').waitFor();
    expect(await form.root.getByText('A user with this e-mail already exists.').count()).toBe(1);
    expect(await form.alert().count()).toBe(0);
    await form.cancel();
  });

  it('confirms create, edit, toggle, export and delete in an announced toast', async () => {
    const partners = new ListScreen(page, PARTNERS);
    await partners.open();
    await partners.button('Create').click();
    const form = await partners.form('Create Partner');
    await form.field('Partner name').fill('Delta Kafe');
    await form.field('Contact person first name').fill('Aysu');
    await form.field('Contact person last name').fill('Karimova');
    await form.phone('050', '1234567');
    await form.field('Email').fill('delta@kafe.test');
    const row = form.root.getByRole('group', { name: 'City 1', exact: true });
    await form.pick(row.getByLabel('City', { exact: true }), 'Bak', 'Bakı');
    await row.getByLabel('Address', { exact: true }).fill('Füzuli küç. 9');
    // A decimal comma is read as a dot.
    await row.getByLabel('Latitude', { exact: true }).fill('40,41');
    await row.getByLabel('Longitude', { exact: true }).fill('49.87');
    await form.saveAndClose();
    await until(() => toasts(page).innerText()).toContain('Partner Delta Kafe created');
    await until(() => partners.total()).toBe('4 partners');

    await partners.tool('Delta Kafe', 'Edit').click();
    const edit = await partners.form('Edit Partner');
    await edit.field('Partner name').fill('Delta Kafe 2');
    await edit.saveAndClose();
    await until(() => toasts(page).innerText()).toContain('Partner Delta Kafe 2 saved');

    await partners.statusSwitch('Delta Kafe 2').click();
    await until(() => toasts(page).innerText()).toContain('Partner Delta Kafe 2 deactivated');

    const [download] = await Promise.all([page.waitForEvent('download'), partners.button('Export').click()]);
    await download.path();
    await until(() => toasts(page).innerText()).toContain('Partners.xlsx downloaded');

    await partners.tool('Delta Kafe 2', 'Delete').click();
    const confirm = await openedDialog(page, 'Delete');
    expect(await confirm.innerText()).toContain('Delete partner Delta Kafe 2?');
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await until(() => toasts(page).innerText()).toContain('Partner Delta Kafe 2 deleted');
    await shot(page, 'machinery-toast');
  });
});

describe('keyboard', () => {
  it('the first Tab reaches "Skip to content", which moves focus to the screen', async () => {
    const page = await signedInTab('/users');
    await new ListScreen(page, USERS).loaded();
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await until(() => page.evaluate(() => document.activeElement?.id)).toBe('main-content');
  });

  it('sign-in offers Sign Up only when the server allows registration (it does not here)', async () => {
    const page = await suite.newPage();
    const settings = page.waitForResponse((response) => response.url().endsWith('/api/auth/settings'));
    await page.goto('/auth/login');
    await settings;
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await page.getByRole('link', { name: 'Sign Up' }).count()).toBe(0);
  });
});
