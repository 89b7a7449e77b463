import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { az } from '../../frontend/src/lib/i18n/az';
import { expectAccessible } from '../support/axe';
import { PHONE, shot } from '../support/browser';
import type { Schema } from '../support/contract';
import { callInbound } from '../support/inbound';
import { pngBytes } from '../support/images';
import { ListScreen, type ScreenSpec } from '../support/listScreen';
import { englishPatterns, screenTexts } from '../support/screens';
import { runSql } from '../support/sql';
import { useSuite } from '../support/suite';
import { asideLabels, openedDialog, overflowsHorizontally, signIn, until } from '../support/ui';

type WebhookRow = Schema<'WebhookRow'>;

/** Private targets (the receiver is on 127.0.0.1) and quick retries, for this file's server only. */
const suite = useSuite({}, { serveArgs: ['--webhooks-allow-private', '--webhook-retries', '1s,1s,2s'] });
const WEBHOOKS: ScreenSpec = { path: '/webhooks', title: 'Webhooks' };

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

/**
 * A partner's system as the test plays it: an HTTP server on 127.0.0.1 that answers its first
 * request with 500 and every later one with 204, and keeps what it was sent.
 */
class Receiver {
  readonly received: Received[] = [];
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const status = this.received.length === 0 ? 500 : 204;
        this.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), status });
        response.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/perkdesk`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve) ?? resolve(undefined));
  }

  /** What came with this `webhook-id`, in order. */
  of(messageId: string): Received[] {
    return this.received.filter((request) => request.headers['webhook-id'] === messageId);
  }
}

/** Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under the secret's decoded bytes. */
function signatureOf(secret: string, request: Received): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${request.headers['webhook-id']}.${request.headers['webhook-timestamp']}.${request.body}`;
  return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
}

/** The signatures of the `webhook-signature` header (space-separated while two secrets sign). */
const signaturesIn = (request: Received) => String(request.headers['webhook-signature'] ?? '').split(' ').filter(Boolean);

function signedBy(secret: string, request: Received): boolean {
  const wanted = Buffer.from(signatureOf(secret, request));
  return signaturesIn(request).some((signature) => {
    const given = Buffer.from(signature);
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  });
}

describe('Webhooks: an Admin points an endpoint at a receiver, sees it fail then succeed, replays and rotates', () => {
  const receiver = new Receiver();
  let page: Page;
  let screen: ListScreen;
  let key = '';
  let assetId = 0;
  let secret = '';
  let messageId = '';

  /** An employee arriving through the employee app's API: the event the endpoint hears of. */
  async function addEmployee(email: string): Promise<void> {
    const answer = await callInbound(suite.server.baseUrl, 'PUT', `app/employees/${email}`, key, {
      assetId,
      firstName: 'Leyla',
      lastName: 'Əliyeva',
      phone: '994501234567',
    });
    expect(answer.status, JSON.stringify(answer.json)).toBe(201);
  }

  /** The drawer of the row with `url`, on its Deliveries tab. */
  async function openDeliveries(url: string): Promise<Locator> {
    await screen.tool(url, 'View').click();
    const drawer = await openedDialog(page, 'Webhook details');
    await drawer.getByRole('tab', { name: 'Deliveries' }).click();
    return drawer;
  }

  const delivery = (drawer: Locator, id: string) => drawer.getByRole('list', { name: 'Deliveries' }).locator(`li[data-delivery="${id}"]`);

  beforeAll(async () => {
    await receiver.start();
    const api = await suite.api();
    const asset = await api.createAsset(
      { name: 'Azərsun Holding', contactPerson: 'Rəşad Əliyev', phoneNumber: '994501112233', email: 'hr@azersun.test', barcodePrefix: 'AZS' },
      pngBytes(32, [40, 90, 160], [255, 255, 255]),
    );
    assetId = asset.id;
    key = (await api.call<{ key: string }>('POST', 'apiClient', { name: 'Employee app', kind: 'employee-app', rateLimitPerMinute: 600 })).key;
    page = await suite.signedIn(suite.admin, '/webhooks');
    screen = new ListScreen(page, WEBHOOKS);
    await screen.loaded();
  });

  afterAll(async () => {
    await page?.context().close();
    await receiver.stop();
  });

  it('lists Webhooks under Settings, for Admins', async () => {
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    expect((await asideLabels(page)).slice(-4)).toEqual(['API clients', 'Webhooks', 'Activity', 'Trash']);
    expect(await screen.message()).toBe('No information found');
    await expectAccessible(page, '/webhooks at 1280');
  });

  it('creates an endpoint with the rules the server holds, and shows its secret once', async () => {
    await screen.button('Create').click();
    const form = await screen.form('Create webhook');
    await form.save().click();
    await form.message('URL is required').waitFor();
    await form.message('Choose at least one event').waitFor();
    await form.field('URL').fill('ftp://files.azersun.test/in');
    await form.save().click();
    await form.message('URL must be an http or https address').waitFor();
    await expectAccessible(page, 'the create form', form.root);
    await shot(page, 'webhooks-create-1280');
    await form.field('URL').fill(receiver.url);
    await form.field('Description').fill('Azərsun HR');
    await form.root.getByRole('checkbox', { name: /An employee was added/ }).check();
    await form.save().click();

    const shown = await openedDialog(page, `The signing secret of ${receiver.url}`);
    secret = await shown.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    await shown.getByText('it is shown only this once and will not be shown again', { exact: false }).waitFor();
    await expectAccessible(page, 'the secret shown once', shown);
    await shot(page, 'webhooks-secret-1280');
    await shown.getByRole('button', { name: 'I have stored the secret' }).click();
    await shown.waitFor({ state: 'detached' });

    const row = screen.row(receiver.url);
    await row.getByText('employee.created', { exact: true }).waitFor();
    await row.getByText('Active', { exact: true }).waitFor();
    await row.getByText('All', { exact: true }).waitFor();
    await row.getByText('Never', { exact: true }).waitFor();
    // Never again: not in the page, after a reload, nor in any answer.
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await screen.loaded();
    expect(await page.content()).not.toContain(secret);
    const api = await suite.api();
    const listed = await api.call<{ data: WebhookRow[] }>('GET', 'webhook');
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect(JSON.stringify(await api.call('GET', `webhook/${listed.data[0].id}`))).not.toContain(secret);
  });

  it('delivers the event signed: the first attempt fails (500), the retry succeeds, both in the drawer', async () => {
    await addEmployee('leyla.aliyeva@azersun.test');
    // The receiver hears of it twice, with one webhook-id: a 500, then (a second later) a 204.
    await until(() => receiver.received.length, 15_000).toBe(2);
    const [first, retry] = receiver.received;
    messageId = String(first.headers['webhook-id']);
    expect(messageId).toMatch(/^msg_/);
    expect(retry.headers['webhook-id']).toBe(messageId);
    for (const request of receiver.received) {
      expect(request.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(request.headers['content-type']).toContain('application/json');
      expect(signedBy(secret, request), 'signed with the secret shown once').toBe(true);
    }
    const body = JSON.parse(first.body) as { type: string; timestamp: string; data: { email?: string; userName?: string } };
    expect(body.type).toBe('employee.created');
    expect(JSON.stringify(body.data)).toContain('leyla.aliyeva@azersun.test');
    expect(retry.body).toBe(first.body);

    await page.goto('/webhooks');
    await screen.loaded();
    const drawer = await openDeliveries(receiver.url);
    const item = delivery(drawer, messageId);
    // The log reads itself again while the delivery waits; it ends delivered, on its second attempt.
    await item.getByText('Delivered', { exact: true }).waitFor({ timeout: 15_000 });
    await item.getByText('employee.created', { exact: true }).waitFor();
    await item.getByRole('button', { name: 'Attempts and payload' }).click();
    const attempts = item.getByRole('list', { name: 'Attempts' }).getByRole('listitem');
    await until(() => attempts.count()).toBe(2);
    await attempts.nth(0).getByText('500', { exact: true }).waitFor();
    await attempts.nth(1).getByText('204', { exact: true }).waitFor();
    const payload = await item.getByLabel('Payload').innerText();
    expect(JSON.parse(payload)).toEqual(JSON.parse(first.body));
    expect(payload).toContain('\n  "type": "employee.created"');
    await expectAccessible(page, 'the drawer with the delivery log', drawer);
    await shot(page, 'webhooks-drawer-1280');
  });

  it('replays a delivery: the receiver gets the same webhook-id again', async () => {
    const drawer = await openedDialog(page, 'Webhook details');
    const item = delivery(drawer, messageId);
    await item.getByRole('button', { name: 'Replay' }).click();
    await page.getByText(`Delivery ${messageId} will be sent again`, { exact: true }).waitFor();
    await until(() => receiver.of(messageId).length, 15_000).toBe(3);
    expect(receiver.of(messageId)[2].status).toBe(204);
    expect(signedBy(secret, receiver.of(messageId)[2])).toBe(true);
    await item.getByText('Delivered', { exact: true }).waitFor({ timeout: 15_000 });
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    // The list says when it was last sent to, and the answer.
    await screen.row(receiver.url).getByText('HTTP 204', { exact: true }).waitFor();
  });

  it('rotates the secret after saying the old one signs 24 hours more; both sign meanwhile', async () => {
    await screen.tool(receiver.url, 'Rotate secret').click();
    const question = await openedDialog(page, 'Rotate secret');
    await question.getByText('The old secret keeps signing beside the new one for 24 hours', { exact: false }).waitFor();
    await expectAccessible(page, 'the rotate question', question);
    await question.getByRole('button', { name: 'Rotate secret' }).click();
    const shown = await openedDialog(page, `The signing secret of ${receiver.url}`);
    const rotated = await shown.getByLabel('Signing secret').inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await shown.getByRole('button', { name: 'I have stored the secret' }).click();
    await shown.waitFor({ state: 'detached' });
    await page.getByText(`The secret of ${receiver.url} was rotated`, { exact: true }).waitFor();

    await addEmployee('rashad.aliyev@azersun.test');
    await until(() => receiver.received.length, 15_000).toBe(4);
    const signedTwice = receiver.received[3];
    expect(signedTwice.status).toBe(204);
    expect(signaturesIn(signedTwice)).toHaveLength(2);
    expect(signedBy(rotated, signedTwice), 'signed with the new secret').toBe(true);
    expect(signedBy(secret, signedTwice), 'and with the old one, for 24 hours').toBe(true);
    expect(await page.content()).not.toContain(rotated);
  });

  it('warns every screen while the server has switched an endpoint off, until it is switched on', async () => {
    const api = await suite.api();
    const old = receiver.url.replace('/hooks/perkdesk', '/legacy/erp');
    const created = await api.call<{ webhook: WebhookRow }>('POST', 'webhook', { url: old, events: ['complaint.created'], description: 'Old ERP' });
    // The server switches an endpoint off after days of failures; the test sets the state it leaves.
    runSql(
      suite.server.dbPath,
      `UPDATE webhooks SET disabled_at = '2026-11-25T08:00:00.000Z', disabled_reason = 'Failed for 5 days', failing_since = '2026-11-20T08:00:00.000Z' WHERE id = ${created.webhook.id}`,
    );
    await page.goto('/dashboard');
    const banner = page.getByRole('alert').filter({ hasText: 'Webhooks switched off: 1' });
    await banner.waitFor();
    await banner.getByText(old, { exact: false }).waitFor();
    await expectAccessible(page, 'the dashboard with the switched-off banner');
    await shot(page, 'webhooks-banner-1280');
    await banner.getByRole('link', { name: 'Open Webhooks' }).click();
    await screen.loaded();
    await until(() => screen.rows.count()).toBe(1);
    const row = screen.row(old);
    await row.getByText('Switched off', { exact: true }).waitFor();
    await expectAccessible(page, '/webhooks filtered to the switched-off endpoints');
    const toggle = screen.statusSwitch(old);
    expect(await toggle.isChecked()).toBe(false);
    // Switched on, it leaves this filtered list, and the banner goes.
    await toggle.click();
    await page.getByText(`Webhook ${old} activated`, { exact: true }).waitFor();
    await banner.waitFor({ state: 'detached' });
    await until(() => screen.message()).toBe('No information found');
    const after = await api.call<WebhookRow>('GET', `webhook/${created.webhook.id}`);
    expect(after.state).toBe('active');
  });

  it('fits 1024 and 390 px: the list, the form and the drawer', async () => {
    await page.setViewportSize({ width: 1024, height: 800 });
    await screen.open();
    expect(await overflowsHorizontally(page)).toBe(false);
    await shot(page, 'webhooks-1024');
    await page.setViewportSize({ width: 1280, height: 800 });
    await screen.open();
    await shot(page, 'webhooks-1280');

    const phone = await suite.newPage({ viewport: PHONE });
    await signIn(phone, suite.admin, '/webhooks');
    const small = new ListScreen(phone, WEBHOOKS);
    await small.loaded();
    expect(await overflowsHorizontally(phone)).toBe(false);
    await expectAccessible(phone, '/webhooks at 390');
    await shot(phone, 'webhooks-390');
    await small.button('Create').click();
    const form = await small.form('Create webhook');
    await form.root.getByRole('radio', { name: 'One asset' }).check();
    await form.root.getByRole('combobox', { name: 'Asset' }).waitFor();
    expect(await overflowsHorizontally(phone)).toBe(false);
    await shot(phone, 'webhooks-create-390');
    await form.cancel();
    await small.tool(receiver.url, 'View').click();
    const drawer = await openedDialog(phone, 'Webhook details');
    await drawer.getByRole('tab', { name: 'Deliveries' }).click();
    await drawer.getByRole('list', { name: 'Deliveries' }).waitFor();
    await drawer.locator('li[data-delivery]').first().getByRole('button', { name: 'Attempts and payload' }).click();
    await drawer.getByRole('list', { name: 'Attempts' }).first().waitFor();
    expect(await overflowsHorizontally(phone)).toBe(false);
    await expectAccessible(phone, 'the drawer at 390', drawer);
    await shot(phone, 'webhooks-drawer-390');
  });

  it('speaks Azerbaijani on the list and in the drawer', async () => {
    const patterns = englishPatterns(az as unknown as Record<string, unknown>);
    await page.evaluate(() => localStorage.setItem('perkdesk-language', 'az'));
    try {
      // The same screen, its title (and so its table's name) in Azerbaijani.
      const inAz = new ListScreen(page, { path: '/webhooks', title: 'Vebhuklar' });
      await inAz.open();
      expect((await screenTexts(page)).filter((text) => patterns.some((pattern) => pattern.test(text)))).toEqual([]);
      await inAz.tool(receiver.url, 'Bax').click();
      const drawer = await openedDialog(page, 'Vebhukun məlumatları');
      await drawer.getByRole('tab', { name: 'Göndərişlər' }).click();
      await drawer.locator('li[data-delivery]').first().getByRole('button', { name: 'Cəhdlər və məzmun' }).click();
      await drawer.getByRole('list', { name: 'Cəhdlər' }).first().waitFor();
      expect((await screenTexts(page)).filter((text) => patterns.some((pattern) => pattern.test(text)))).toEqual([]);
      await shot(page, 'webhooks-drawer-az');
      await page.keyboard.press('Escape');
    } finally {
      await page.evaluate(() => localStorage.removeItem('perkdesk-language'));
    }
  });
});
