import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Role } from '../../lib/roles';
import { admin, captureDownloads, json, mockApi, pageOf, queryOf, signedIn } from '../../testing/api';
import { renderAt } from '../../testing/render';
import EmployeeRequestsPage from './EmployeeRequestsPage';
import type { EmployeeRequestRow } from './employeeRequestsResource';

const rows: EmployeeRequestRow[] = [
  { id: 1, employeeFullName: 'İlkin Məmmədov', assetName: 'Azərsun', text: 'Bravo marketlərində endirim olsun', requestDate: '2026-11-20T10:00:00Z', status: 0, statusName: 'New' },
  { id: 2, employeeFullName: 'Gülnar Şahinova', assetName: 'Bakcell', text: 'İdman zalı kampaniyası', requestDate: '2026-11-21T10:00:00Z', status: 2, statusName: 'Done' },
];

function setup(roleId: number = Role.Admin) {
  signedIn({}, { ...admin, roleId });
  const api = mockApi({
    'GET /api/wishList': pageOf(rows),
    'GET /api/wishList/filter': pageOf([rows[0]]),
    'GET /api/asset': pageOf([{ id: 3, name: 'Azərsun' }, { id: 4, name: 'Bakcell' }]),
    'PUT /api/wishList/updateStatus': () => json({ ...rows[0], status: 1 }),
    'GET /api/wishList/export': () => new Response(new Blob(['xlsx']), { headers: { 'Content-Length': '4' } }),
  });
  renderAt('/requests', <EmployeeRequestsPage />);
  return { api, user: userEvent.setup() };
}

describe('Requests by Employee screen', () => {
  it('lists employee full name, asset name, text, request date and a status the staff set from the row', async () => {
    const { api, user } = setup();
    await screen.findByText('İlkin Məmmədov');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Employee full name', 'Asset name', 'Text', 'Request date', 'Status', 'Actions']);
    expect(screen.queryByRole('checkbox')).toBeNull();
    const status = screen.getByRole('combobox', { name: 'Request status: İlkin Məmmədov' });
    expect(status).toHaveValue('0');
    await user.selectOptions(status, 'In review');
    await waitFor(() => expect(api.callsTo('PUT /api/wishList/updateStatus')[0]?.body).toEqual({ id: 1, status: 1 }));
  });

  it('shows Call Center the status as text', async () => {
    setup(Role.CallCenter);
    await screen.findByText('İlkin Məmmədov');
    expect(screen.queryByRole('combobox', { name: /Request status/ })).toBeNull();
    expect(within(screen.getByRole('row', { name: /Gülnar/ })).getByText('Done')).toBeInTheDocument();
  });

  it('filters by the asset chosen among GET asset and exports WishLists.xlsx', async () => {
    const { api, user } = setup();
    const saved = captureDownloads();
    await screen.findByText('İlkin Məmmədov');
    await user.click(screen.getByRole('button', { name: /Show filter/ }));
    await user.selectOptions(await screen.findByLabelText('Asset name'), await screen.findByRole('option', { name: 'Azərsun' }));
    await waitFor(() => expect(api.callsTo('GET /api/wishList/filter')).toHaveLength(1));
    expect(queryOf(api.callsTo('GET /api/wishList/filter')[0])).toMatchObject({ AssetId: '3' });
    expect(await screen.findByRole('button', { name: /Asset name: Azərsun/ })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(saved).toEqual(['WishLists.xlsx']));
  });
});
