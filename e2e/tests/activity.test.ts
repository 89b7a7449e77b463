import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/axe';
import { DESKTOP, PHONE, shot, TABLET } from '../support/browser';
import { DownloadFolder } from '../support/exports';
import { pngBytes } from '../support/images';
import { ListScreen, type ScreenSpec } from '../support/listScreen';
import { useSuite } from '../support/suite';
import { openedDialog, overflowsHorizontally, until } from '../support/ui';

const suite = useSuite();
const ASSETS: ScreenSpec = { path: '/assets', title: 'Asset list' };
const ACTIVITY: ScreenSpec = { path: '/activity', title: 'Activity' };
const USERS: ScreenSpec = { path: '/users', title: 'Users' };
const ADMIN_NAME = 'Aysel Mammadova';

describe('Activity and History: an edit is on record, in the drawer and on the Activity screen', () => {
  let page: Page;
  const downloads = new DownloadFolder();

  beforeAll(async () => {
    const api = await suite.api();
    await api.createAsset(
      { name: 'Xəzər Telekom', contactPerson: 'Nigar Həsənova', phoneNumber: '994501234567', email: 'nigar@xezer.test', barcodePrefix: 'XZT' },
      pngBytes(32, [30, 90, 160], [255, 255, 255]),
    );
    page = await suite.signedIn(suite.admin, '/assets');
  });

  afterAll(async () => {
    await page?.context().close();
    downloads.remove();
  });

  it('an edit shows on the record’s History tab, newest first, with the field before and after', async () => {
    const assets = new ListScreen(page, ASSETS);
    await assets.loaded();
    await assets.tool('Xəzər Telekom', 'Edit').click();
    const form = await assets.form('Edit Asset');
    await form.field('Primary contact person name').fill('Rəşad Əliyev');
    await form.saveAndClose();
    await until(() => assets.row('Xəzər Telekom').innerText()).toContain('Rəşad Əliyev');

    await assets.tool('Xəzər Telekom', 'View').click();
    const drawer = await openedDialog(page, 'Asset details');
    await drawer.getByRole('tab', { name: 'Details', selected: true }).waitFor();
    await drawer.getByRole('tab', { name: 'History' }).click();
    const history = drawer.getByRole('list', { name: 'History' });
    await history.waitFor();
    const entries = history.getByRole('listitem');
    await until(() => entries.count()).toBe(2);
    expect(await entries.nth(0).getByText(`Edited by ${ADMIN_NAME}`, { exact: true }).count()).toBe(1);
    expect(await entries.nth(1).getByText(`Created by ${ADMIN_NAME}`, { exact: true }).count()).toBe(1);
    const change = entries.nth(0).getByRole('row', { name: /Contact person/ });
    expect(await change.innerText()).toMatch(/Contact person\s+Nigar Həsənova\s+Rəşad Əliyev/);
    await expectAccessible(page, 'the History tab at 1280', drawer);
    await shot(page, 'activity-history-tab-1280');
    await page.setViewportSize(PHONE);
    expect(await overflowsHorizontally(page)).toBe(false);
    await expectAccessible(page, 'the History tab at 390', drawer);
    await shot(page, 'activity-history-tab-390');
    await page.setViewportSize(DESKTOP);
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'detached' });
  });

  it('lists every change on the Activity screen under Settings, filtered by action and user', async () => {
    const activity = new ListScreen(page, ACTIVITY);
    await activity.open();
    await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
    expect(await activity.headers()).toEqual(['Date', 'Who', 'Action', 'Record', 'Changes', 'Tools']);
    await activity.row('Edited').getByText('Contact person', { exact: true }).waitFor();
    expect(await activity.row('Edited').innerText()).toContain(ADMIN_NAME);
    await expectAccessible(page, '/activity at 1280');
    await shot(page, 'activity-1280');

    await activity.showFilter();
    await activity.filterField('Action').selectOption({ label: 'Edited' });
    await until(() => activity.column('Action')).toEqual(['Edited']);
    await activity.filterField('Action').selectOption({ label: 'Signed in' });
    await until(async () => [...new Set(await activity.column('Action'))]).toEqual(['Signed in']);
    expect(new Set(await activity.column('Who'))).toEqual(new Set([ADMIN_NAME]));
    await activity.filterField('Action').selectOption({ label: 'All' });
    await activity.filterField('Record type').selectOption({ label: 'Asset' });
    await until(() => activity.column('Action')).toEqual(['Edited', 'Created']);

    // By user: the Admin (user #1, made by create-admin) signed in and edited; the command line made the account.
    await activity.open('?userId=1');
    await until(async () => [...new Set(await activity.column('Who'))]).toEqual([ADMIN_NAME]);
    expect(await activity.column('Action')).toContain('Edited');
    await activity.open('?resource=asset');
    await activity.row('Edited').getByRole('button', { name: /View/ }).click();
    const entry = await openedDialog(page, 'Activity entry');
    await entry.getByRole('region', { name: 'Changes' }).getByText('Rəşad Əliyev', { exact: true }).waitFor();
    await expectAccessible(page, 'an activity entry', entry);
    await entry.getByRole('button', { name: 'Close' }).click();
    await entry.waitFor({ state: 'detached' });
  });

  it('an Admin resets a user’s lost authenticator: the new QR code once, and the reset on the user’s History', async () => {
    const api = await suite.api();
    await api.createUser({ firstName: 'Tural', lastName: 'Həsənli', email: 'tural.hasanli@perkdesk.test', phone: '994501112233' });
    const users = new ListScreen(page, USERS);
    await users.open('?email=tural');
    await users.tool('tural.hasanli@perkdesk.test', 'Reset authenticator').click();
    const dialog = await openedDialog(page, 'Reset authenticator');
    await dialog.getByText('Give Tural Həsənli a new authenticator?', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Reset authenticator' }).click();
    const qr = dialog.getByRole('img', { name: 'QR code: Tural Həsənli' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await expectAccessible(page, 'the new authenticator', dialog);
    await shot(page, 'activity-reset-authenticator');
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'detached' });
    await users.tool('tural.hasanli@perkdesk.test', 'View').click();
    const drawer = await openedDialog(page, 'User details');
    await drawer.getByRole('tab', { name: 'History' }).click();
    await drawer.getByText(`Authenticator reset by ${ADMIN_NAME}`, { exact: true }).waitFor();
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'detached' });
  });

  it('exports Activity.xlsx with the list’s filters', async () => {
    const activity = new ListScreen(page, ACTIVITY);
    await activity.open('?resource=asset');
    const workbook = await downloads.export(page, activity.button('Export'));
    expect(workbook.fileName).toBe('Activity.xlsx');
    expect(workbook.header).toEqual(['Date', 'Who', 'Kind', 'Resource', 'Record', 'Name', 'Action', 'Changes']);
    expect(workbook.data.map((row) => row[6])).toEqual(['update', 'create']);
    // The record's name as it is now, as the screen shows it.
    expect(workbook.data.map((row) => row[5])).toEqual(['Xəzər Telekom', 'Xəzər Telekom']);
    expect(workbook.data[0][1]).toBe(ADMIN_NAME);
  });

  it('fits and stays accessible at 1024 and 390 px', async () => {
    const activity = new ListScreen(page, ACTIVITY);
    for (const size of [TABLET, PHONE]) {
      await page.setViewportSize(size);
      await activity.open();
      expect(await overflowsHorizontally(page), `${size.width} px`).toBe(false);
      await expectAccessible(page, `/activity at ${size.width}`);
      await shot(page, `activity-${size.width}`);
    }
    await page.setViewportSize(DESKTOP);
  });
});

