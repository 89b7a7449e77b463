import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Role } from '../../lib/roles';
import { admin, json, mockApi, pageOf, signedIn } from '../../testing/api';
import { renderAt } from '../../testing/render';
import ApiClientsPage from './ApiClientsPage';
import { API_CLIENT_MESSAGES, type ApiClientRow } from './apiClientsResource';

const rows: ApiClientRow[] = [
  { id: 1, name: 'Employee app', kind: 'employee-app', partnerName: null, keyPrefix: 'pk_AbC123', rateLimitPerMinute: 600, lastUsedAt: null, createdAt: '2026-11-20T10:00:00Z', isRevoked: false, revokedAt: null },
  { id: 2, name: 'Bravo POS', kind: 'partner', partnerName: 'Bravo', keyPrefix: 'pk_XyZ789', rateLimitPerMinute: 60, lastUsedAt: '2026-11-21T10:00:00Z', createdAt: '2026-11-20T10:00:00Z', isRevoked: true, revokedAt: '2026-11-22T10:00:00Z' },
];
const KEY = 'pk_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';

function setup() {
  signedIn({}, { ...admin, roleId: Role.Admin });
  const api = mockApi({
    'GET /api/apiClient': pageOf(rows),
    'POST /api/apiClient': () => json({ key: KEY, client: { ...rows[0], id: 3, name: 'Mobile app' } }, 201),
    'PUT /api/apiClient/revoke': () => json({ ...rows[0], isRevoked: true }),
  });
  renderAt('/api-clients', <ApiClientsPage />);
  return { api, user: userEvent.setup() };
}

describe('API clients screen', () => {
  it('lists the clients by kind and state, never a whole key', async () => {
    setup();
    const row = within(await screen.findByRole('row', { name: /Bravo POS/ }));
    expect(row.getByText('Partner: Bravo')).toBeInTheDocument();
    expect(row.getByText('Revoked')).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /Employee app/ })).getByText('Active')).toBeInTheDocument();
    expect(screen.getByText('pk_AbC123…')).toBeInTheDocument();
  });

  it('creates a client and shows its key once, then forgets it', async () => {
    const { api, user } = setup();
    await screen.findByText('Bravo POS');
    await user.click(screen.getByRole('button', { name: /Create/ }));
    const form = within(await screen.findByRole('dialog', { name: 'Create API client' }));
    await user.clear(form.getByLabelText('Requests per minute'));
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText(API_CLIENT_MESSAGES.name)).toBeInTheDocument();
    expect(form.getByText(API_CLIENT_MESSAGES.rate)).toBeInTheDocument();
    await user.type(form.getByLabelText('Name'), 'Mobile app');
    await user.type(form.getByLabelText('Requests per minute'), '1200');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('POST /api/apiClient')[0]?.body).toEqual({ name: 'Mobile app', kind: 'employee-app', partnerId: null, rateLimitPerMinute: 1200 }));
    const shown = within(await screen.findByRole('dialog', { name: 'The key of Mobile app' }));
    expect(shown.getByLabelText('Secret key')).toHaveValue(KEY);
    await user.click(shown.getByRole('button', { name: 'I have stored the key' }));
    await waitFor(() => expect(screen.queryByDisplayValue(KEY)).toBeNull());
  });

  it('asks for the partner of a partner key', async () => {
    const { user } = setup();
    await screen.findByText('Bravo POS');
    await user.click(screen.getByRole('button', { name: /Create/ }));
    const form = within(await screen.findByRole('dialog', { name: 'Create API client' }));
    await user.type(form.getByLabelText('Name'), 'Araz POS');
    await user.click(form.getByRole('radio', { name: 'Partner' }));
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText(API_CLIENT_MESSAGES.partner)).toBeInTheDocument();
  });

  it('revokes an active client after asking, and offers no revoke for a revoked one', async () => {
    const { api, user } = setup();
    const active = within(await screen.findByRole('row', { name: /Employee app/ }));
    expect(within(screen.getByRole('row', { name: /Bravo POS/ })).queryByRole('button', { name: /Revoke/ })).toBeNull();
    await user.click(active.getByRole('button', { name: /Revoke/ }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Revoke' }));
    expect(confirm.getByText(/Revoke the API client Employee app\?/)).toBeInTheDocument();
    await user.click(confirm.getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(api.callsTo('PUT /api/apiClient/revoke')[0]?.body).toEqual({ id: 1 }));
  });
});
