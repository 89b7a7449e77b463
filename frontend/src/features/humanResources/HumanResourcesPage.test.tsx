import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { localDayEnd, localDayStart } from '../../lib/dates';
import { admin, captureDownloads, json, mockApi, pageOf, queryOf, signedIn, type Handler } from '../../testing/api';
import { renderAt } from '../../testing/render';
import { expectReadOnlyList, typeInto } from '../../testing/screens';
import HumanResourcesPage from './HumanResourcesPage';
import type { HumanResourceRow } from './schemas';

const makeAccounts = (count: number): HumanResourceRow[] =>
  Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    assetName: i % 2 ? 'Bakı Mobil' : 'Qafqaz Bank',
    firstName: `First${i + 1}`,
    lastName: `Last${i + 1}`,
    fullName: `First${i + 1} Last${i + 1}`,
    email: `hr${i + 1}@example.az`,
    phone: '994515492101',
    userId: 100 + i + 1,
    isActive: true,
    isMfaActive: i === 0,
    isEmployeeSeen: false,
    createdAt: '2026-01-23T09:30:00.000Z',
  }));

const assets = [
  { id: 2, name: 'Qafqaz Bank' },
  { id: 6, name: 'Bakı Mobil' },
];

function setup(path = '/humanresource', rows = makeAccounts(3), extra: Record<string, Handler> = {}) {
  signedIn();
  const api = mockApi({
    'GET /api/humanResource': pageOf(rows),
    'GET /api/humanResource/filter': pageOf(rows.slice(0, 1)),
    'GET /api/asset': (call) => pageOf(assets.filter((asset) => asset.name.includes(call.url.searchParams.get('Name') ?? '')))(call),
    ...extra,
  });
  const view = renderAt(path, <HumanResourcesPage />);
  return { ...view, api, user: userEvent.setup() };
}

const rowOf = (name: string) => screen.getByRole('row', { name: new RegExp(name) });

describe('HR accounts screen', () => {
  it("shows 'Hr Account' with HR data under HR headers and the row actions (an Admin also resets an authenticator)", async () => {
    const { api } = setup();
    expect(await screen.findByText('First1 Last1')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Hr Account' })).toBeInTheDocument();
    expect(queryOf(api.callsTo('GET /api/humanResource')[0])).toEqual({ Skip: '0', Take: '10', SortField: 'id', OrderBy: 'false' });
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent);
    expect(headers).toEqual(['', 'Asset name', 'Full name', 'Email', 'Phone number', 'Status', 'Actions']);
    const row = rowOf('First1 Last1');
    expect(within(row).getByRole('checkbox', { name: 'Select row 1' })).toBeInTheDocument();
    expect(within(row).getByText('Qafqaz Bank')).toBeInTheDocument();
    expect(within(row).getByText('+994 51 549 21 01')).toBeInTheDocument();
    expect(within(row).getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual([
      'View',
      'Edit',
      'Change Password',
      'QR code',
      'Reset authenticator',
      'Delete',
    ]);
  });

  it('shows every create rule with its spec message on submit', async () => {
    const { user, api } = setup();
    await screen.findByText('First1 Last1');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const form = within(await screen.findByRole('dialog', { name: 'Create HR Account' }));
    await user.click(form.getByRole('button', { name: 'Save' }));
    for (const message of [
      'Choose an asset',
      'First name is required',
      'Last name is required',
      'Email is required',
      'Phone is required',
      'Password is required',
      'Confirm Password is required',
    ]) {
      expect(form.getByText(message)).toBeInTheDocument();
    }
    await user.type(form.getByLabelText('Password'), 'password');
    expect(form.getByText('Password must consist of a letter, a number.')).toBeInTheDocument();
    await user.type(form.getByLabelText('Password'), '1');
    await user.type(form.getByLabelText('Confirm Password'), 'password2');
    expect(form.getByText('Both password need to be the same')).toBeInTheDocument();
    expect(api.callsTo('POST /api/humanResource')).toHaveLength(0);
  });

  it('creates an account: the asset picked from GET asset (30 a page, by name), both switches, the JSON body', async () => {
    const { user, api } = setup('/humanresource', makeAccounts(3), {
      'POST /api/humanResource': () => json({ id: 40 }, 201),
    });
    await screen.findByText('First1 Last1');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const form = within(await screen.findByRole('dialog', { name: 'Create HR Account' }));
    // While its options are open the combobox makes the rest of the dialog inert, label included: keep the element.
    const assetPicker = await form.findByRole('combobox', { name: 'Asset name' });
    await user.click(assetPicker);
    expect(queryOf((await waitFor(() => api.callsTo('GET /api/asset')[0]))!)).toEqual({ Skip: '0', Take: '30', SortField: 'name', OrderBy: 'true' });
    await user.type(assetPicker, 'Bakı');
    await waitFor(() => expect(api.callsTo('GET /api/asset').map((call) => call.url.searchParams.get('Name'))).toContain('Bakı'));
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    await user.click(screen.getByRole('option', { name: 'Bakı Mobil' }));
    await user.selectOptions(form.getByLabelText('Operator code'), '070');
    await typeInto(user, form, {
      'First name': 'Leyla',
      'Last name': 'Quliyeva',
      Email: 'leyla@bakimobil.az',
      'Phone number': '1234567',
      Password: 'secret12',
      'Confirm Password': 'secret12',
    });
    await user.click(form.getByRole('switch', { name: 'See Employee Id' }));
    await user.click(form.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('POST /api/humanResource')[0].body).toEqual({
      firstName: 'Leyla',
      lastName: 'Quliyeva',
      email: 'leyla@bakimobil.az',
      phone: '994701234567',
      password: 'secret12',
      assetId: 6,
      isMfaActive: false,
      isEmployeeSeen: true,
    });
    await waitFor(() => expect(api.callsTo('GET /api/humanResource')).toHaveLength(2));
  });

  it("shows the duplicate e-mail refusal in the form and the server's field errors under their fields", async () => {
    let answer = json({ message: 'A user with this e-mail already exists.' }, 409);
    const { user } = setup('/humanresource', makeAccounts(3), {
      'GET /api/humanResource/2': () => json({ ...makeAccounts(3)[1], assetId: 6 }),
      'PUT /api/humanResource': () => answer,
    });
    await screen.findByText('First2 Last2');
    await user.click(within(rowOf('First2 Last2')).getByRole('button', { name: 'Edit' }));
    const form = within(await screen.findByRole('dialog', { name: 'Edit HR Account' }));
    await form.findByDisplayValue('First2');
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByRole('alert')).toHaveTextContent('A user with this e-mail already exists.');

    answer = json({ message: 'Wrong phone format. E.g. 994501234567', errors: { phone: 'Wrong phone format. E.g. 994501234567' } }, 400);
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(form.getByLabelText('Phone number')).toHaveAccessibleDescription('Wrong phone format. E.g. 994501234567'));
  });

  it('edits from GET humanResource/{id}: the asset shown by name, switches as stored, PUT with the id', async () => {
    const rows = makeAccounts(3);
    const { user, api } = setup('/humanresource', rows, {
      'GET /api/humanResource/1': () => json({ ...rows[0], assetId: 2 }),
      'PUT /api/humanResource': () => json({ ...rows[0], assetId: 6 }),
    });
    await screen.findByText('First1 Last1');
    await user.click(within(rowOf('First1 Last1')).getByRole('button', { name: 'Edit' }));
    const form = within(await screen.findByRole('dialog', { name: 'Edit HR Account' }));
    expect(await form.findByRole('combobox', { name: 'Asset name' })).toHaveValue('Qafqaz Bank');
    expect(form.getByRole('switch', { name: 'Otp login' })).toBeChecked();
    expect(form.queryByLabelText('Password')).not.toBeInTheDocument();
    await user.clear(form.getByRole('combobox', { name: 'Asset name' }));
    await user.click(await screen.findByRole('option', { name: 'Bakı Mobil' }));
    await user.click(form.getByRole('switch', { name: 'Otp login' }));
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('PUT /api/humanResource')).toHaveLength(1));
    expect(api.callsTo('PUT /api/humanResource')[0].body).toEqual({
      id: 1,
      assetId: 6,
      firstName: 'First1',
      lastName: 'Last1',
      email: 'hr1@example.az',
      phone: '994515492101',
      isMfaActive: false,
      isEmployeeSeen: false,
    });
  });

  it('changes the password as an admin: digit and 8+ characters, both equal, PUT changePasswordByAdmin', async () => {
    const { user, api } = setup('/humanresource', makeAccounts(3), {
      'PUT /api/humanResource/changePasswordByAdmin': () => json({ message: 'The password has been changed.' }),
    });
    await screen.findByText('First3 Last3');
    await user.click(within(rowOf('First3 Last3')).getByRole('button', { name: 'Change Password' }));
    const form = within(await screen.findByRole('dialog', { name: 'Change Password' }));
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(form.getByText('Password is required')).toBeInTheDocument();
    expect(form.getByText('Confirm Password is required')).toBeInTheDocument();
    await user.type(form.getByLabelText('New password'), 'abcdefgh');
    expect(form.getByText('Password must consist of a number.')).toBeInTheDocument();
    await user.clear(form.getByLabelText('New password'));
    await user.type(form.getByLabelText('New password'), '12345678');
    await user.type(form.getByLabelText('Confirm new password'), '12345679');
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(form.getByText('Both password need to be the same')).toBeInTheDocument();
    await user.clear(form.getByLabelText('Confirm new password'));
    await user.type(form.getByLabelText('Confirm new password'), '12345678');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('PUT /api/humanResource/changePasswordByAdmin')[0].body).toEqual({ id: 3, password: '12345678' });
  });

  it("shows the QR code of the account's user; a failed fetch is reported in the dialog and the list stays", async () => {
    const { user, api } = setup('/humanresource', makeAccounts(3), {
      'GET /api/user/get-qr': ({ url }) =>
        url.searchParams.get('id') === '101' ? json({ data: 'data:image/png;base64,QR101' }) : json({ message: 'User not found.' }, 404),
    });
    await screen.findByText('First1 Last1');
    await user.click(within(rowOf('First1 Last1')).getByRole('button', { name: 'QR code' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'QR code' }));
    expect(await dialog.findByRole('img', { name: 'QR code: First1 Last1' })).toHaveAttribute('src', 'data:image/png;base64,QR101');
    expect(queryOf(api.callsTo('GET /api/user/get-qr')[0])).toEqual({ id: '101' });
    await user.click(dialog.getByRole('button', { name: 'Close' }));

    await user.click(within(rowOf('First2 Last2')).getByRole('button', { name: 'QR code' }));
    const failed = within(await screen.findByRole('dialog', { name: 'QR code' }));
    expect(await failed.findByRole('alert')).toHaveTextContent('User not found.');
    expect(screen.getByText('First3 Last3')).toBeInTheDocument();
  });

  it('opens the Human resource details drawer', async () => {
    const rows = makeAccounts(3);
    const { user } = setup('/humanresource', rows, { 'GET /api/humanResource/1': () => json({ ...rows[0], assetId: 2 }) });
    await screen.findByText('First1 Last1');
    await user.click(within(rowOf('First1 Last1')).getByRole('button', { name: 'View' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'Human resource details' }));
    const valueOf = (label: string) => drawer.getByText(label).nextElementSibling?.textContent;
    expect(valueOf('Asset name')).toBe('Qafqaz Bank');
    expect(valueOf('Otp login')).toBe('Yes');
    expect(valueOf('See Employee Id')).toBe('No');
    expect(valueOf('Phone number')).toBe('+994 51 549 21 01');
    expect(valueOf('Created')).toMatch(/^23-01-2026 \d\d:\d\d$/);
  });

  it('filters by AssetName and HumanResourceFullName', async () => {
    const { user, api, currentPath } = setup();
    await screen.findByText('First1 Last1');
    await user.click(screen.getByRole('button', { name: 'Show filter' }));
    const filter = within(screen.getByRole('search', { name: 'Filter' }));
    await user.type(filter.getByLabelText('Asset name'), 'Bank');
    await user.type(filter.getByLabelText('Full name'), 'Anar');
    await waitFor(() => expect(currentPath()).toBe('/humanresource?assetName=Bank&fullName=Anar'));
    await waitFor(() => expect(queryOf(api.callsTo('GET /api/humanResource/filter').at(-1)!)).toMatchObject({ AssetName: 'Bank', HumanResourceFullName: 'Anar' }));
  });

  it('exports HumanResources.xlsx for a date range with the filter, showing real progress', async () => {
    let push: (text: string) => void = () => undefined;
    let finish: () => void = () => undefined;
    const { user, api } = setup('/humanresource?assetName=Bank', makeAccounts(3), {
      'GET /api/humanResource/export': () => {
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            push = (text) => controller.enqueue(new TextEncoder().encode(text));
            finish = () => controller.close();
          },
        });
        return new Response(body, { headers: { 'Content-Length': '8', 'Content-Disposition': 'attachment; filename="HumanResources.xlsx"' } });
      },
    });
    const saved = captureDownloads();
    await screen.findByText('First1 Last1');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Export Excel' }));
    await user.click(dialog.getByRole('button', { name: 'Download' }));
    expect(dialog.getByText('Start date is required')).toBeInTheDocument();
    expect(dialog.getByText('End date is required')).toBeInTheDocument();
    fireEvent.change(dialog.getByLabelText('Start date'), { target: { value: '2026-12-31' } });
    fireEvent.change(dialog.getByLabelText('End date'), { target: { value: '2026-01-01' } });
    expect(dialog.getByText('End date cannot be before the start date')).toBeInTheDocument();
    fireEvent.change(dialog.getByLabelText('Start date'), { target: { value: '2026-01-01' } });
    fireEvent.change(dialog.getByLabelText('End date'), { target: { value: '2026-12-31' } });
    await user.click(dialog.getByRole('button', { name: 'Download' }));

    await waitFor(() => expect(api.callsTo('GET /api/humanResource/export')).toHaveLength(1));
    expect(queryOf(api.callsTo('GET /api/humanResource/export')[0])).toEqual({ AssetName: 'Bank', startDate: localDayStart('2026-01-01'), endDate: localDayEnd('2026-12-31') });
    push('1234');
    expect(await dialog.findByRole('progressbar', { name: 'Downloading… 50%' })).toHaveAttribute('aria-valuenow', '50');
    push('5678');
    finish();
    await waitFor(() => expect(saved).toEqual(['HumanResources.xlsx']));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('gives a User the QR code and Call Center none of the changing or secret controls', async () => {
    signedIn({}, { ...admin, roleId: 1 });
    mockApi({ 'GET /api/humanResource': pageOf(makeAccounts(2)) });
    const view = renderAt('/humanresource', <HumanResourcesPage />);
    await screen.findByText('First1 Last1');
    expect(screen.getAllByRole('button', { name: 'QR code' })).toHaveLength(2);
    view.unmount();

    signedIn({}, { ...admin, roleId: 2 });
    mockApi({ 'GET /api/humanResource': pageOf(makeAccounts(2)) });
    renderAt('/humanresource', <HumanResourcesPage />);
    await screen.findByText('First1 Last1');
    expectReadOnlyList(2);
  });
});
