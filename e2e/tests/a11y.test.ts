import type { Page } from 'playwright-core';
import { beforeAll, describe, it } from 'vitest';
import { expectAccessible } from '../support/axe';
import { DESKTOP, PHONE, shot, TABLET } from '../support/browser';
import { pngBytes } from '../support/images';
import { ASSETS, HR_ACCOUNTS, ListScreen, PARTNERS, USERS, type ScreenSpec } from '../support/listScreen';
import { DADLI_MARKET } from '../support/screens';
import { useSuite } from '../support/suite';
import { openedDialog, openUserMenu } from '../support/ui';

/**
 * axe-core on every built screen, drawer and dialog: no serious or critical
 * violation. Later screens add their own walk with `expectAccessible`.
 */
const suite = useSuite();

/**
 * The Admin's page, signed in through the sign-in screen by the first test that asks and sent to
 * each later test's screen: every sign-in spends a TOTP step, the server takes two a half minute,
 * and a sign-in per test had the file wait minutes for the clock.
 */
let adminPage: Page | undefined;
async function signedInAt(path: string): Promise<Page> {
  if (!adminPage) {
    adminPage = await suite.signedIn(suite.admin, path);
    return adminPage;
  }
  await adminPage.setViewportSize(DESKTOP);
  await adminPage.goto(path);
  return adminPage;
}

interface ListWalk {
  spec: ScreenSpec;
  /** The text of a seeded row whose tools are opened. */
  row: string;
  create: string;
  edit: string;
  drawer: string;
  /** Row tools that open their own dialog: tool name → dialog title. */
  tools: Record<string, string>;
  exportDialog?: string;
}

const WALKS: ListWalk[] = [
  { spec: USERS, row: 'leyla.quliyeva@perkdesk.test', create: 'Create User', edit: 'Edit', drawer: 'User details', tools: { 'Change Password': 'Change Password', 'QR code': 'QR code', 'Reset authenticator': 'Reset authenticator' } },
  { spec: ASSETS, row: 'Qafqaz Bank', create: 'Create Asset', edit: 'Edit Asset', drawer: 'Asset details', tools: {} },
  {
    spec: HR_ACCOUNTS,
    row: 'Nigar Hasanova',
    create: 'Create HR Account',
    edit: 'Edit HR Account',
    drawer: 'Human resource details',
    tools: { 'Change Password': 'Change Password', 'QR code': 'QR code', 'Reset authenticator': 'Reset authenticator' },
    exportDialog: 'Export Excel',
  },
  { spec: PARTNERS, row: DADLI_MARKET.name, create: 'Create Partner', edit: 'Edit Partner', drawer: 'Partner details', tools: {} },
];

beforeAll(async () => {
  const api = await suite.api();
  await api.createUser({ firstName: 'Leyla', lastName: 'Quliyeva', email: 'leyla.quliyeva@perkdesk.test', phone: '994501234567' });
  const asset = await api.createAsset(
    { name: 'Qafqaz Bank', contactPerson: 'Kamran Aliyev', phoneNumber: '994551234567', email: 'info@qafqaz.test', barcodePrefix: 'QB1' },
    pngBytes(64, [30, 64, 175], [14, 165, 233]),
  );
  await api.createHrAccount({ assetId: asset.id, firstName: 'Nigar', lastName: 'Hasanova', email: 'nigar@qafqaz.test', phone: '994701234567', password: 'Welcome2026' });
  await api.createPartner(DADLI_MARKET);
});

async function closeWith(page: Page, title: string): Promise<void> {
  const dialog = await openedDialog(page, title);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

async function walkList(page: Page, walk: ListWalk, width: string): Promise<void> {
  const screen = new ListScreen(page, walk.spec);
  await screen.open();
  await screen.row(walk.row).waitFor();
  await expectAccessible(page, `${walk.spec.path} at ${width}`);
  await screen.showFilter();
  await expectAccessible(page, `${walk.spec.path} with the filter shown at ${width}`);

  await screen.button('Create').click();
  await screen.form(walk.create);
  await expectAccessible(page, `${walk.create} at ${width}`);
  await closeWith(page, walk.create);

  await screen.tool(walk.row, 'Edit').click();
  await screen.form(walk.edit);
  await expectAccessible(page, `${walk.edit} (${walk.spec.path}) at ${width}`);
  await closeWith(page, walk.edit);

  await screen.tool(walk.row, 'View').click();
  await openedDialog(page, walk.drawer);
  await page.getByRole('dialog', { name: walk.drawer }).getByText(walk.row.split(' ')[0]).first().waitFor();
  await expectAccessible(page, `${walk.drawer} at ${width}`);
  await closeWith(page, walk.drawer);

  for (const [tool, title] of Object.entries(walk.tools)) {
    await screen.tool(walk.row, tool).click();
    await openedDialog(page, title);
    await expectAccessible(page, `${tool} of ${walk.spec.path} at ${width}`);
    await closeWith(page, title);
  }

  await screen.tool(walk.row, 'Delete').click();
  await openedDialog(page, 'Delete');
  await expectAccessible(page, `Delete of ${walk.spec.path} at ${width}`);
  await closeWith(page, 'Delete');

  if (walk.exportDialog) {
    await screen.button('Export').click();
    await openedDialog(page, walk.exportDialog);
    await expectAccessible(page, `${walk.exportDialog} of ${walk.spec.path} at ${width}`);
    await closeWith(page, walk.exportDialog);
  }
}

describe('axe-core finds no serious or critical violation', () => {
  it('on the public screens: sign-in, registration, forgot and reset password, the agreement, the error pages', async () => {
    const page = await suite.newPage();
    for (const path of ['/auth/login', '/auth/registration', '/auth/forgot-password', '/auth/reset-password?token=x', '/privacy', '/error/error-v2', '/error/error-v5']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await expectAccessible(page, path);
    }
  });

  for (const walk of WALKS) {
    it(`on ${walk.spec.path}: the list, filter, create, edit, drawer, row tools and delete at 1280 px`, async () => {
      const page = await signedInAt(walk.spec.path);
      await walkList(page, walk, '1280 px');
    });
  }

  // One test a width, so each has its own time limit on a loaded machine.
  it.each([TABLET, PHONE])('on Users and Partners at $width px', async (viewport) => {
    const page = await signedInAt('/users');
    await page.setViewportSize(viewport);
    for (const walk of [WALKS[0], WALKS[3]]) await walkList(page, walk, `${viewport.width} px`);
    await page.setViewportSize(DESKTOP);
  });

  it('on the signed-in frame: user menu, own Change Password, My profile, Layout builder, the dashboard and the phone menu', async () => {
    const page = await signedInAt('/users');
    await new ListScreen(page, USERS).loaded();
    const menu = await openUserMenu(page);
    await expectAccessible(page, 'the open user menu');
    await menu.getByRole('menuitem', { name: 'Change Password' }).click();
    await openedDialog(page, 'Change Password');
    await expectAccessible(page, 'own Change Password');
    await closeWith(page, 'Change Password');
    for (const path of ['/my-page', '/builder', '/dashboard']) {
      await page.goto(path);
      await page.getByRole('main').getByRole('heading', { level: 1 }).waitFor();
      await expectAccessible(page, path);
    }
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog').getByRole('navigation', { name: 'Main menu' }).waitFor();
    await expectAccessible(page, 'the phone menu drawer');
    await shot(page, 'a11y-phone-menu');
    await page.setViewportSize(DESKTOP);
  });
});
