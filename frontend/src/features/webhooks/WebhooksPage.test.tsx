import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { toasts } from '../../components/Toast';
import { Role } from '../../lib/roles';
import { admin, json, mockApi, pageOf, queryOf, signedIn, type Handler } from '../../testing/api';
import { renderAt } from '../../testing/render';
import { formatDateTime } from '../../lib/dates';
import { prettyPayload } from './DeliveryLog';
import { revealedSecret, WEBHOOK_MESSAGES, type WebhookDelivery, type WebhookDeliveryRow, type WebhookRow } from './schemas';
import { SwitchedOffBanner, switchedOff } from './SwitchedOffBanner';
import WebhooksPage from './WebhooksPage';

const base: WebhookRow = {
  id: 1,
  url: 'https://erp.bravo.test/hooks/perkdesk',
  description: 'Bravo ERP',
  events: ['usage.created', 'redemption.confirmed'],
  partnerId: 4,
  partnerName: 'Bravo',
  assetId: null,
  assetName: null,
  isActive: true,
  state: 'active',
  disabledAt: null,
  disabledReason: null,
  failingSince: null,
  lastDeliveryAt: '2026-11-20T10:00:00Z',
  lastStatusCode: 204,
  previousSecretExpiresAt: null,
  createdAt: '2026-11-01T10:00:00Z',
};
const hr: WebhookRow = {
  ...base,
  id: 2,
  url: 'https://hr.azersun.test/in',
  description: null,
  events: ['usage.created', 'usage.voided', 'redemption.confirmed', 'campaign.created', 'campaign.updated', 'campaign.approved', 'complaint.created', 'application.created', 'employee.created', 'employee.updated', 'employee.deleted'],
  partnerId: null,
  partnerName: null,
  assetId: 7,
  assetName: 'Azərsun',
  isActive: false,
  state: 'disabled',
  disabledAt: '2026-11-25T08:00:00Z',
  disabledReason: 'Failed for 5 days',
  failingSince: '2026-11-20T08:00:00Z',
  lastStatusCode: null,
};
const paused: WebhookRow = { ...base, id: 3, url: 'https://books.perk.test/webhook', partnerId: null, partnerName: null, isActive: false, state: 'paused', lastDeliveryAt: null, lastStatusCode: null };

const SECRET = 'whsec_MfKQ9r3Gr7Yw4cU7OvlCZlSPd0Zg8KqVb1IzN3xQfL8=';
const failed: WebhookDeliveryRow = {
  id: 11,
  webhookId: 1,
  event: 'usage.created',
  messageId: 'msg_2o5Jk1',
  attempt: 2,
  statusCode: 500,
  durationMs: 41,
  error: 'HTTP 500',
  state: 'pending',
  nextAttemptAt: '2026-11-20T10:05:00Z',
  createdAt: '2026-11-20T10:00:00Z',
  deliveredAt: null,
};
const delivered: WebhookDeliveryRow = { ...failed, id: 10, messageId: 'msg_1aa', event: 'redemption.confirmed', attempt: 1, statusCode: 204, durationMs: 12, error: null, state: 'delivered', nextAttemptAt: null };
const payload = '{"type":"usage.created","timestamp":"2026-11-20T10:00:00Z","data":{"id":41}}';
const detail: WebhookDelivery = {
  ...failed,
  payload,
  attempts: [
    { attempt: 1, startedAt: '2026-11-20T10:00:01Z', statusCode: 500, durationMs: 40, error: 'HTTP 500' },
    { attempt: 2, startedAt: '2026-11-20T10:00:02Z', statusCode: null, durationMs: 15000, error: 'timed out' },
  ],
};

afterEach(() => {
  switchedOff.value = null;
  revealedSecret.value = null;
});

function setup(routes: Record<string, Handler> = {}) {
  signedIn({}, { ...admin, roleId: Role.Admin });
  const api = mockApi({
    'GET /api/webhook': pageOf([base, hr, paused]),
    'GET /api/webhook/filter': pageOf([hr]),
    'GET /api/webhook/1': () => json(base),
    'POST /api/webhook': ({ body }) => json({ secret: SECRET, webhook: { ...base, id: 4, url: (body as { url: string }).url } }, 201),
    'POST /api/webhook/1/rotate-secret': () => json({ secret: SECRET, webhook: { ...base, previousSecretExpiresAt: '2026-11-21T10:00:00Z' } }, 201),
    'PATCH /api/webhook/active': ({ body }) => json(body),
    'GET /api/webhook/1/deliveries': pageOf([failed, delivered]),
    'GET /api/webhook/delivery/11': () => json(detail),
    'POST /api/webhook/delivery/11/replay': () => json({ ...failed, state: 'pending', attempt: 2 }),
    ...routes,
  });
  renderAt('/webhooks', <WebhooksPage />);
  return { api, user: userEvent.setup() };
}

const rowOf = (url: string) => within(screen.getByRole('row', { name: new RegExp(url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }));

describe('Webhooks screen', () => {
  it('lists each endpoint with its events, scope, state and last delivery', async () => {
    setup();
    await screen.findByText(base.url);
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(
      expect.arrayContaining(['URL', 'Events', 'Scope', 'State', 'Last delivery']),
    );
    expect(rowOf(base.url).getByText('usage.created, redemption.confirmed')).toBeInTheDocument();
    expect(rowOf(base.url).getByText('Partner: Bravo')).toBeInTheDocument();
    expect(rowOf(base.url).getByText(formatDateTime(base.lastDeliveryAt))).toBeInTheDocument();
    expect(rowOf(base.url).getByText('HTTP 204')).toBeInTheDocument();
    expect(rowOf(hr.url).getByText('All events')).toBeInTheDocument();
    expect(rowOf(hr.url).getByText('Asset: Azərsun')).toBeInTheDocument();
    expect(rowOf(hr.url).getByText('Switched off')).toBeInTheDocument();
    expect(rowOf(paused.url).getByText('Paused')).toBeInTheDocument();
    expect(rowOf(paused.url).getByText('All')).toBeInTheDocument();
    expect(rowOf(paused.url).getByText('Never')).toBeInTheDocument();
  });

  it('holds the form to the server’s rules, then shows the new secret once and forgets it', async () => {
    const { api, user } = setup();
    await screen.findByText(base.url);
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const form = within(await screen.findByRole('dialog', { name: 'Create webhook' }));
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText(WEBHOOK_MESSAGES.urlRequired)).toBeInTheDocument();
    expect(form.getByText(WEBHOOK_MESSAGES.events)).toBeInTheDocument();
    await user.type(form.getByLabelText('URL'), 'ftp://files.bravo.test');
    await user.click(form.getByRole('radio', { name: 'One partner' }));
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText(WEBHOOK_MESSAGES.urlScheme)).toBeInTheDocument();
    expect(form.getByText(WEBHOOK_MESSAGES.partner)).toBeInTheDocument();
    expect(api.callsTo('POST /api/webhook')).toHaveLength(0);

    await user.clear(form.getByLabelText('URL'));
    await user.type(form.getByLabelText('URL'), ' https://hooks.bravo.test/in ');
    await user.click(form.getByRole('radio', { name: 'Every partner and asset' }));
    const events = within(form.getByRole('group', { name: 'Events' }));
    await user.click(events.getByRole('checkbox', { name: /An employee was added/ }));
    await user.click(events.getByRole('checkbox', { name: /A discount was used/ }));
    await user.type(form.getByLabelText('Description'), 'HR sync');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.callsTo('POST /api/webhook')[0]?.body).toEqual({
        url: 'https://hooks.bravo.test/in',
        description: 'HR sync',
        // In the document's order, whatever the order of the clicks.
        events: ['employee.created', 'usage.created'],
        // Active unless said otherwise.
        partnerId: null,
        assetId: null,
      }),
    );
    const shown = within(await screen.findByRole('dialog', { name: 'The signing secret of https://hooks.bravo.test/in' }));
    expect(shown.getByLabelText('Signing secret')).toHaveValue(SECRET);
    expect(shown.getByText(/shown only this once and will not be shown again/)).toBeInTheDocument();
    expect(shown.getByRole('button', { name: 'Copy the secret' })).toBeInTheDocument();
    await user.click(shown.getByRole('button', { name: 'I have stored the secret' }));
    await waitFor(() => expect(screen.queryByDisplayValue(SECRET)).toBeNull());
    expect(document.body.innerHTML).not.toContain(SECRET);
  });

  it('rotates a secret after saying the old one signs for 24 hours more, and shows the new one once', async () => {
    const { api, user } = setup();
    await screen.findByText(base.url);
    await user.click(rowOf(base.url).getByRole('button', { name: 'Rotate secret' }));
    const question = within(await screen.findByRole('dialog', { name: 'Rotate secret' }));
    expect(question.getByText(/keeps signing beside the new one for 24 hours/)).toBeInTheDocument();
    await user.click(question.getByRole('button', { name: 'Rotate secret' }));
    await waitFor(() => expect(api.callsTo('POST /api/webhook/1/rotate-secret')).toHaveLength(1));
    const shown = within(await screen.findByRole('dialog', { name: `The signing secret of ${base.url}` }));
    expect(shown.getByLabelText('Signing secret')).toHaveValue(SECRET);
    await waitFor(() => expect(toasts.value.map((toast) => toast.text)).toContain(`The secret of ${base.url} was rotated`));
    await user.click(shown.getByRole('button', { name: 'I have stored the secret' }));
    await waitFor(() => expect(screen.queryByDisplayValue(SECRET)).toBeNull());
  });

  it('switches on an endpoint the server switched off, and pauses an active one', async () => {
    const { api, user } = setup();
    await screen.findByText(base.url);
    const off = rowOf(hr.url).getByRole('switch');
    expect(off).not.toBeChecked();
    await user.click(off);
    await waitFor(() => expect(api.callsTo('PATCH /api/webhook/active')[0]?.body).toEqual({ id: 2, isActive: true }));
    await user.click(rowOf(base.url).getByRole('switch'));
    await waitFor(() => expect(api.callsTo('PATCH /api/webhook/active')[1]?.body).toEqual({ id: 1, isActive: false }));
  });

  it('edits an endpoint as it stands: a paused one stays paused, its scope and events kept', async () => {
    const { api, user } = setup({
      'GET /api/webhook/3': () => json({ ...paused, assetId: 7, assetName: 'Azərsun' }),
      'PUT /api/webhook/3': ({ body }) => json({ ...paused, ...(body as object) }),
    });
    await screen.findByText(base.url);
    await user.click(rowOf(paused.url).getByRole('button', { name: 'Edit' }));
    const form = within(await screen.findByRole('dialog', { name: 'Edit webhook' }));
    expect(await form.findByLabelText('URL')).toHaveValue(paused.url);
    expect(form.getByRole('radio', { name: 'One asset' })).toBeChecked();
    expect(form.getByRole('switch', { name: 'Active' })).not.toBeChecked();
    await user.clear(form.getByLabelText('Description'));
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.callsTo('PUT /api/webhook/3')[0]?.body).toEqual({
        url: paused.url,
        description: null,
        events: paused.events,
        isActive: false,
        partnerId: null,
        assetId: 7,
      }),
    );
  });

  it('filters by address and state', async () => {
    const { api, user } = setup();
    await screen.findByText(base.url);
    await user.click(screen.getByRole('button', { name: 'Show filter' }));
    const filter = within(screen.getByRole('search', { name: 'Filter' }));
    await user.selectOptions(filter.getByLabelText('State'), 'Switched off');
    await user.type(filter.getByLabelText('URL'), 'azersun');
    await waitFor(() => expect(queryOf(api.callsTo('GET /api/webhook/filter').at(-1)!)).toMatchObject({ State: 'disabled', Url: 'azersun' }));
  });

  it('the drawer lists the deliveries, opens one’s attempts and payload, and replays it', async () => {
    const { api, user } = setup();
    await screen.findByText(base.url);
    await user.click(rowOf(base.url).getByRole('button', { name: 'View' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'Webhook details' }));
    expect(await drawer.findByText('A discount was used')).toBeInTheDocument();
    await user.click(drawer.getByRole('tab', { name: 'Deliveries' }));
    const log = within(await drawer.findByRole('list', { name: 'Deliveries' }));
    const item = within(log.getByText('msg_2o5Jk1').closest('li')!);
    expect(item.getByText('Pending')).toBeInTheDocument();
    expect(item.getByText('500')).toBeInTheDocument();
    expect(item.getByText('41 ms')).toBeInTheDocument();
    expect(within(log.getByText('msg_1aa').closest('li')!).getByText('Delivered')).toBeInTheDocument();

    const open = item.getByRole('button', { name: 'Attempts and payload' });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    await user.click(open);
    expect(open).toHaveAttribute('aria-expanded', 'true');
    const attempts = within(await item.findByRole('list', { name: 'Attempts' }));
    expect(attempts.getAllByRole('listitem')).toHaveLength(2);
    expect(attempts.getByText('timed out')).toBeInTheDocument();
    expect(attempts.getByText('no answer')).toBeInTheDocument();
    expect(item.getByLabelText('Payload').textContent).toBe(prettyPayload(payload));
    expect(prettyPayload(payload)).toContain('\n  "type": "usage.created"');

    const before = api.callsTo('GET /api/webhook/1/deliveries').length;
    await user.click(item.getByRole('button', { name: 'Replay' }));
    await waitFor(() => expect(api.callsTo('POST /api/webhook/delivery/11/replay')).toHaveLength(1));
    await waitFor(() => expect(toasts.value.map((toast) => toast.text)).toContain('Delivery msg_2o5Jk1 will be sent again'));
    await waitFor(() => expect(api.callsTo('GET /api/webhook/1/deliveries').length).toBeGreaterThan(before));
  });

  it('reads the log again while a delivery waits for its retry, and stops once none does', async () => {
    let answers = 0;
    const { api, user } = setup({
      'GET /api/webhook/1/deliveries': (call) => {
        answers += 1;
        return pageOf([answers < 2 ? failed : { ...failed, state: 'delivered', statusCode: 204, error: null, nextAttemptAt: null }])(call);
      },
    });
    await screen.findByText(base.url);
    await user.click(rowOf(base.url).getByRole('button', { name: 'View' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'Webhook details' }));
    await user.click(drawer.getByRole('tab', { name: 'Deliveries' }));
    const log = await drawer.findByRole('list', { name: 'Deliveries' });
    expect(await within(log).findByText('Pending')).toBeInTheDocument();
    expect(await within(log).findByText('Delivered', {}, { timeout: 4000 })).toBeInTheDocument();
    const calls = api.callsTo('GET /api/webhook/1/deliveries').length;
    await act(() => new Promise((resolve) => setTimeout(resolve, 2500)));
    expect(api.callsTo('GET /api/webhook/1/deliveries')).toHaveLength(calls);
  });
});

describe('the switched-off banner', () => {
  function showBanner(roleId: number, disabled: WebhookRow[]) {
    signedIn({}, { ...admin, roleId });
    const api = mockApi({ 'GET /api/webhook/filter': pageOf(disabled) });
    renderAt('/dashboard', <SwitchedOffBanner />);
    return api;
  }

  it('tells an Admin which endpoints the server switched off, as an alert linking to them', async () => {
    const api = showBanner(Role.Admin, [hr, { ...hr, id: 5, url: 'https://pos.araz.test/hook' }]);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Webhooks switched off: 2');
    expect(alert).toHaveTextContent(`${hr.url}, https://pos.araz.test/hook`);
    expect(within(alert).getByRole('link', { name: 'Open Webhooks' })).toHaveAttribute('href', '/webhooks?state=disabled');
    expect(queryOf(api.callsTo('GET /api/webhook/filter')[0])).toMatchObject({ State: 'disabled', Take: '5' });
  });

  it('says nothing when none is switched off, and never asks for a User', async () => {
    const api = showBanner(Role.Admin, []);
    await waitFor(() => expect(api.callsTo('GET /api/webhook/filter')).toHaveLength(1));
    expect(screen.queryByRole('alert')).toBeNull();
    const other = showBanner(Role.User, [hr]);
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(other.callsTo('GET /api/webhook/filter')).toHaveLength(0);
  });
});
