import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { localDayEnd, localDayStart } from '../../lib/dates';
import { Role } from '../../lib/roles';
import { admin, captureDownloads, json, mockApi, pageOf, queryOf, signedIn, type Handler } from '../../testing/api';
import { renderAt } from '../../testing/render';
import UsageHistoryPage from './UsageHistoryPage';
import type { UsageRow } from './usageHistoryResource';

const rows: UsageRow[] = [
  {
    id: 7,
    employeeEmail: 'ilkin@azersun.test',
    assetName: 'Azərsun Holding',
    partnerName: 'Bravo',
    campaignName: 'Həftəsonu endirimi',
    merchantCategory: 'Market',
    createdDate: '2026-11-20T09:30:00.000Z',
    discountPercent: 15,
    status: 0,
    statusName: 'Confirmed',
    verified: true,
    branchName: 'Bakı, Nizami küç. 10',
  },
  {
    id: 8,
    employeeEmail: 'gulnar@bakcell.test',
    assetName: 'Bakcell',
    partnerName: 'Araz',
    campaignName: 'Araz kartı',
    merchantCategory: 'Market',
    createdDate: '2026-11-21T09:30:00.000Z',
    discountPercent: 10,
    status: 1,
    statusName: 'Cancelled',
    verified: false,
    branchName: null,
  },
];

function setup(roleId: number = Role.Admin, path = '/usagehistory', routes: Record<string, Handler> = {}) {
  signedIn({}, { ...admin, roleId });
  let status = 0;
  const api = mockApi({
    'GET /api/usageHistory': pageOf(rows),
    'GET /api/usageHistory/filter': pageOf([rows[0]]),
    'GET /api/usageHistory/7': () => json({ ...rows[0], status, rating: 4, employeeId: 3 }),
    'PUT /api/usageHistory/updateStatus': ({ body }) => {
      status = (body as { status: number }).status;
      return json({ ...rows[0], status });
    },
    'DELETE /api/usageHistory': () => json({}),
    'GET /api/asset': pageOf([{ id: 3, name: 'Azərsun Holding' }]),
    'GET /api/partner/filter': pageOf([
      { id: 4, name: 'Bravo' },
      { id: 5, name: 'Araz' },
    ]),
    'GET /api/partner/5': () => json({ id: 5, name: 'Araz' }),
    'GET /api/employee/forAdmin': pageOf([{ id: 9, userName: 'gulnar@bakcell.test' }]),
    ...routes,
  });
  renderAt(path, <UsageHistoryPage />);
  return { api, user: userEvent.setup() };
}

describe('Usage History screen', () => {
  it('lists the spec columns without row selection; Admins may delete a row', async () => {
    const { api, user } = setup();
    await screen.findByText('ilkin@azersun.test');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Employee email',
      'Asset name',
      'Partner name',
      'Campaign name',
      'Merchant category',
      'Date',
      'Discount percent',
      'Verified',
      'Branch',
      'Actions',
    ]);
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create' })).toBeNull();
    const row = screen.getByRole('row', { name: /ilkin@azersun.test/ });
    expect(within(row).getByText('15%')).toBeInTheDocument();
    expect(within(row).getByText('Bakı, Nizami küç. 10')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Delete' }));
    const question = within(await screen.findByRole('dialog'));
    expect(question.getByText(/Delete usage record ilkin@azersun.test, Həftəsonu endirimi/)).toBeInTheDocument();
    await user.click(question.getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(api.callsTo('DELETE /api/usageHistory')[0]?.body).toEqual({ id: [7] }));
  });

  it.each([
    ['a User', Role.User],
    ['Call Center', Role.CallCenter],
  ])('offers %s no Delete (the server keeps it for Admins)', async (_, roleId) => {
    setup(roleId);
    await screen.findByText('ilkin@azersun.test');
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.getAllByRole('button', { name: 'View' })).toHaveLength(2);
  });

  it('shows every field in the drawer and sets the status there, reading the record and the list again', async () => {
    const { api, user } = setup();
    await screen.findByText('ilkin@azersun.test');
    await user.click(within(screen.getByRole('row', { name: /ilkin@azersun.test/ })).getByRole('button', { name: 'View' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'Usage details' }));
    await drawer.findByText('4 of 5');
    for (const text of ['ilkin@azersun.test', 'Azərsun Holding', 'Bravo', 'Həftəsonu endirimi', 'Market', '15%', 'Bakı, Nizami küç. 10']) {
      expect(drawer.getByText(text)).toBeInTheDocument();
    }
    const status = drawer.getByRole('combobox', { name: /^Usage status: ilkin@azersun.test/ });
    expect(status).toHaveValue('0');
    await user.selectOptions(status, 'Cancelled');
    await waitFor(() => expect(api.callsTo('PUT /api/usageHistory/updateStatus')[0]?.body).toEqual({ id: 7, status: 1 }));
    await waitFor(() => expect(api.callsTo('GET /api/usageHistory/7')).toHaveLength(2));
    await waitFor(() => expect(drawer.getByRole('combobox', { name: /^Usage status/ })).toHaveValue('1'));
    expect(api.callsTo('GET /api/usageHistory')).toHaveLength(2);
  });

  it('shows Call Center the status as text in the drawer', async () => {
    const { user } = setup(Role.CallCenter);
    await screen.findByText('ilkin@azersun.test');
    await user.click(within(screen.getByRole('row', { name: /ilkin@azersun.test/ })).getByRole('button', { name: 'View' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'Usage details' }));
    await drawer.findByText('Confirmed');
    expect(drawer.queryByRole('combobox')).toBeNull();
  });

  it('filters by a partner picked from partner/filter (Take=30, name typed) and names it in the chip', async () => {
    const { api, user } = setup();
    await screen.findByText('ilkin@azersun.test');
    await user.click(screen.getByRole('button', { name: /Show filter/ }));
    const partner = screen.getByRole('combobox', { name: 'Partner' });
    await user.type(partner, 'bra');
    await waitFor(() =>
      expect(api.callsTo('GET /api/partner/filter').map(queryOf)).toContainEqual(expect.objectContaining({ Name: 'bra', Take: '30', Skip: '0' })),
    );
    await user.click(await screen.findByRole('option', { name: 'Bravo' }));
    await waitFor(() => expect(api.callsTo('GET /api/usageHistory/filter')).toHaveLength(1));
    expect(queryOf(api.callsTo('GET /api/usageHistory/filter')[0])).toMatchObject({ PartnerId: '4' });
    expect(await screen.findByRole('button', { name: 'Remove filter Partner: Bravo' })).toBeInTheDocument();
  });

  it('picks an employee among employee/forAdmin by userName, searched by e-mail', async () => {
    const { api, user } = setup();
    await screen.findByText('ilkin@azersun.test');
    await user.click(screen.getByRole('button', { name: /Show filter/ }));
    await user.type(screen.getByRole('combobox', { name: 'Employee' }), 'gul');
    await waitFor(() =>
      expect(api.callsTo('GET /api/employee/forAdmin').map(queryOf)).toContainEqual(expect.objectContaining({ Email: 'gul', Take: '30', SortField: 'userName' })),
    );
    await user.click(await screen.findByRole('option', { name: 'gulnar@bakcell.test' }));
    await waitFor(() => expect(api.callsTo('GET /api/usageHistory/filter')).toHaveLength(1));
    expect(queryOf(api.callsTo('GET /api/usageHistory/filter')[0])).toMatchObject({ EmployeeId: '9' });
  });

  it('filters verified uses (confirmed at the till with a redemption code) by Yes or No', async () => {
    const { api, user } = setup();
    await screen.findByText('ilkin@azersun.test');
    await user.click(screen.getByRole('button', { name: /Show filter/ }));
    await user.selectOptions(screen.getByLabelText('Verified'), 'true');
    await waitFor(() => expect(api.callsTo('GET /api/usageHistory/filter')).toHaveLength(1));
    expect(queryOf(api.callsTo('GET /api/usageHistory/filter')[0])).toMatchObject({ Verified: 'true' });
    expect(await screen.findByRole('button', { name: 'Remove filter Verified: Yes' })).toBeInTheDocument();
  });

  it('names a picked id that arrives in the link through the record', async () => {
    const { api } = setup(Role.Admin, '/usagehistory?partnerId=5');
    expect(await screen.findByRole('button', { name: 'Remove filter Partner: Araz' })).toBeInTheDocument();
    expect(queryOf(api.callsTo('GET /api/usageHistory/filter')[0])).toMatchObject({ PartnerId: '5' });
    expect(screen.getByRole('combobox', { name: 'Partner' })).toHaveValue('Araz');
  });

  it("sends the date range as the browser's days and holds a reversed range back with a message", async () => {
    const { api, user } = setup();
    await screen.findByText('ilkin@azersun.test');
    await user.click(screen.getByRole('button', { name: /Show filter/ }));
    fireEvent.change(screen.getByLabelText('Start date'), { target: { value: '2026-11-20' } });
    fireEvent.change(screen.getByLabelText('End date'), { target: { value: '2026-11-01' } });
    const end = screen.getByLabelText('End date');
    expect(await screen.findByText('End date cannot be before Start date')).toBeInTheDocument();
    expect(end).toHaveAttribute('aria-invalid', 'true');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(api.callsTo('GET /api/usageHistory/filter')).toHaveLength(0);
    fireEvent.change(end, { target: { value: '2026-11-21' } });
    await waitFor(() => expect(api.callsTo('GET /api/usageHistory/filter')).toHaveLength(1));
    expect(screen.queryByText('End date cannot be before Start date')).toBeNull();
    expect(queryOf(api.callsTo('GET /api/usageHistory/filter')[0])).toMatchObject({
      StartDate: localDayStart('2026-11-20'),
      EndDate: localDayEnd('2026-11-21'),
    });
  });

  it('exports UsageHistory.xlsx from usageHistory/export/admin for a date range; the dialog replaces the list dates', async () => {
    const { api, user } = setup(Role.CallCenter, '/usagehistory?campaignName=bravo&startDate=2026-01-01', {
      'GET /api/usageHistory/export/admin': () =>
        new Response(new Blob(['xlsx']), { headers: { 'Content-Length': '4', 'Content-Disposition': 'attachment; filename="UsageHistory.xlsx"' } }),
    });
    const saved = captureDownloads();
    await screen.findByText('ilkin@azersun.test');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Export Excel' }));
    fireEvent.change(dialog.getByLabelText('Start date'), { target: { value: '2026-11-21' } });
    fireEvent.change(dialog.getByLabelText('End date'), { target: { value: '2026-11-20' } });
    await user.click(dialog.getByRole('button', { name: 'Download' }));
    expect(dialog.getByText('End date cannot be before the start date')).toBeInTheDocument();
    fireEvent.change(dialog.getByLabelText('End date'), { target: { value: '2026-11-22' } });
    await user.click(dialog.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(saved).toEqual(['UsageHistory.xlsx']));
    expect(queryOf(api.callsTo('GET /api/usageHistory/export/admin')[0])).toEqual({
      CampaignName: 'bravo',
      startDate: localDayStart('2026-11-21'),
      endDate: localDayEnd('2026-11-22'),
    });
  });
});
