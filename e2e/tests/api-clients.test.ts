import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../support/axe';
import { PHONE, shot } from '../support/browser';
import { createCampaign, createCategory } from '../support/campaignsApi';
import { pngBytes } from '../support/images';
import { ListScreen, type ScreenSpec } from '../support/listScreen';
import { callInbound } from '../support/inbound';
import { useSuite } from '../support/suite';
import { asideLabels, openedDialog, overflowsHorizontally, until } from '../support/ui';

const suite = useSuite();
const CLIENTS: ScreenSpec = { path: '/api-clients', title: 'API clients' };
const USAGE: ScreenSpec = { path: '/usagehistory', title: 'Usage history' };
const EMPLOYEE = 'leyla.aliyeva@azersun.test';

/** A call of the inbound API with an API key, as the employee app makes it. */
const inbound = (method: string, path: string, key: string, body?: unknown) => callInbound(suite.server.baseUrl, method, path, key, body);

describe('API clients: an Admin makes a key and sees it once; a use posted with it shows on Usage History and in the dashboard', () => {
  let page: Page;
  let screen: ListScreen;
  let key = '';
  let assetId = 0;
  let campaignId = 0;

  beforeAll(async () => {
    const api = await suite.api();
    const png = (r: number) => pngBytes(32, [r, 90, 160], [255, 255, 255]);
    const asset = await api.createAsset({ name: 'Azərsun Holding', contactPerson: 'Rəşad Əliyev', phoneNumber: '994501112233', email: 'hr@azersun.test', barcodePrefix: 'AZS' }, png(40));
    assetId = asset.id;
    const city = { cityId: 1, address: 'Nizami küç. 10', latitude: 40.3777, longitude: 49.892 };
    const bravo = await api.createPartner({ name: 'Bravo Market', contactPersonFirstName: 'Elvin', contactPersonLastName: 'Quliyev', phoneNumber: '994503334455', email: 'info@bravo.test', cities: [city] });
    const market = await createCategory(api, { nameAz: 'Ərzaq', nameEn: 'Groceries', nameRu: 'Продукты' });
    const campaign = await createCampaign(
      api,
      { partnerId: bravo.id, campaignCategoryId: market.id, discountPercent: 15, nameAz: 'Həftəsonu endirimi', nameEn: 'Weekend', nameRu: 'Выходные', assets: [asset.id], startInDays: 0 },
      png(120),
      png(200),
    );
    campaignId = campaign.id;
    page = await suite.signedIn(suite.admin, '/api-clients');
    screen = new ListScreen(page, CLIENTS);
    await screen.loaded();
  });

  afterAll(async () => {
    await page?.context().close();
  });

  it('lists API clients under Settings in the side menu, for Admins', async () => {
    await page.getByRole('heading', { name: 'API clients', level: 1 }).waitFor();
    expect((await asideLabels(page)).slice(-4)).toEqual(['API clients', 'Webhooks', 'Activity', 'Trash']);
    await page.getByRole('navigation', { name: 'Main menu' }).getByText('Settings', { exact: true }).waitFor();
    expect(await screen.headers()).toEqual(['Name', 'Kind', 'Key starts with', 'Requests per minute', 'Last used', 'Status', 'Actions']);
    await expectAccessible(page, '/api-clients at 1280');
  });

  it('creates a key and shows it once', async () => {
    await screen.button('Create').click();
    const form = await screen.form('Create API client');
    await form.save().click();
    await form.message('Name is required').waitFor();
    await form.field('Name').fill('Mobile app');
    await expectAccessible(page, 'the create form');
    await form.save().click();
    const shown = await openedDialog(page, 'The key of Mobile app');
    key = await shown.getByLabel('Secret key').inputValue();
    expect(key).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    await shown.getByText('it is shown only this once', { exact: false }).waitFor();
    await expectAccessible(page, 'the key shown once', shown);
    await shot(page, 'api-clients-key-1280');
    await shown.getByRole('button', { name: 'I have stored the key' }).click();
    await shown.waitFor({ state: 'detached' });
    // The list names the key by its first characters only, and the key is nowhere in the page any more.
    await screen.row('Mobile app').getByText(`${key.slice(0, 9)}…`, { exact: true }).waitFor();
    await screen.row('Mobile app').getByText('Active', { exact: true }).waitFor();
    expect(await page.content()).not.toContain(key);
    await page.reload();
    await screen.loaded();
    expect(await page.content()).not.toContain(key);
    const listed = await (await suite.api()).call<{ data: Record<string, unknown>[] }>('GET', 'apiClient');
    expect(JSON.stringify(listed)).not.toContain(key);
  });

  it('a use posted with the key appears on Usage History and in the dashboard counts', async () => {
    const api = await suite.api();
    const before = await api.call<{ totalUsageCount: number }>('GET', 'dashboard');
    const employee = await inbound('PUT', `app/employees/${EMPLOYEE}`, key, { assetId, firstName: 'Leyla', lastName: 'Əliyeva', phone: '994501234567' });
    expect(employee.status, JSON.stringify(employee.json)).toBe(201);
    const use = await inbound('POST', 'app/usage', key, { employeeEmail: EMPLOYEE, campaignId, rating: 5 });
    expect(use.status, JSON.stringify(use.json)).toBe(201);
    const usage = new ListScreen(page, USAGE);
    await usage.open();
    await usage.row(EMPLOYEE).getByText('Həftəsonu endirimi', { exact: true }).waitFor();
    await usage.row(EMPLOYEE).getByText('Azərsun Holding', { exact: true }).waitFor();
    const after = await api.call<{ totalUsageCount: number }>('GET', 'dashboard');
    expect(after.totalUsageCount).toBe(before.totalUsageCount + 1);
    const months = await api.call<{ month: number; usageCount: number }[]>('GET', `dashboard/usageHistory?year=${new Date().getUTCFullYear()}`);
    expect(months[new Date().getUTCMonth()].usageCount).toBe(1);
    // And on the dashboard's headline figures.
    await page.goto('/dashboard');
    const totalUsage = page.locator('dl > div').filter({ has: page.getByText('Total usage', { exact: true }) }).locator('dd');
    await until(() => totalUsage.textContent()).toBe(String(after.totalUsageCount));
  });

  it('revokes the key after asking; the key is refused at once', async () => {
    await screen.open();
    expect(await screen.row('Mobile app').getByText('Never', { exact: true }).count()).toBe(0);
    await screen.row('Mobile app').getByRole('button', { name: /Revoke/ }).click();
    const question = await openedDialog(page, 'Revoke');
    await question.getByText('Revoke the API client Mobile app? Its key stops working at once.', { exact: true }).waitFor();
    await expectAccessible(page, 'the revoke question', question);
    await question.getByRole('button', { name: 'Revoke' }).click();
    await screen.row('Mobile app').getByText('Revoked', { exact: true }).waitFor();
    const refused = await inbound('GET', `app/campaigns?employeeEmail=${EMPLOYEE}`, key);
    expect(refused.status).toBe(401);
    expect(refused.json.message).toBe('The API key was revoked.');
    expect(await screen.row('Mobile app').getByRole('button', { name: /Revoke/ }).count()).toBe(0);
  });

  it('fits a phone (390 px): the list, the create form and the key dialog', async () => {
    // A new tab of the signed-in Admin's at phone width: another sign-in would wait for the next
    // TOTP step.
    const phone = await page.context().newPage();
    await phone.setViewportSize(PHONE);
    await phone.goto('/api-clients');
    const small = new ListScreen(phone, CLIENTS);
    await small.loaded();
    expect(await overflowsHorizontally(phone)).toBe(false);
    await expectAccessible(phone, '/api-clients at 390');
    await small.button('Create').click();
    const form = await small.form('Create API client');
    await form.field('Name').fill('Bravo kassa');
    await form.page.getByRole('radio', { name: 'Partner' }).check();
    await form.pick(form.root.getByRole('combobox', { name: 'Partner' }), 'Bravo', 'Bravo Market');
    await form.save().click();
    const shown = await openedDialog(phone, 'The key of Bravo kassa');
    expect(await shown.getByLabel('Secret key').inputValue()).toMatch(/^pk_/);
    expect(await overflowsHorizontally(phone)).toBe(false);
    await shot(phone, 'api-clients-key-390');
    await shown.getByRole('button', { name: 'I have stored the key' }).click();
    await small.row('Bravo kassa').getByText('Partner: Bravo Market', { exact: true }).waitFor();
  });
});
