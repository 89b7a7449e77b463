import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { admin, captureDownloads, json, mockApi, pageOf, queryOf, signedIn, type Handler } from '../../testing/api';
import { renderAt } from '../../testing/render';
import { expectReadOnlyList } from '../../testing/screens';
import type { UserRow } from './schemas';
import UsersPage from './UsersPage';

const makeUsers = (count: number): UserRow[] =>
  Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    firstName: `First${i + 1}`,
    lastName: `Last${i + 1}`,
    email: `user${i + 1}@example.com`,
    phone: '994501234567',
    roleId: 1,
    roleName: 'User',
    isActive: i % 2 === 0,
  }));

function setup(path = '/users', rows = makeUsers(23), extra: Record<string, Handler> = {}) {
  signedIn();
  const api = mockApi({ 'GET /api/user': pageOf(rows), 'GET /api/user/filter': pageOf(rows.slice(0, 2)), ...extra });
  const view = renderAt(path, <UsersPage />);
  return { ...view, api, user: userEvent.setup() };
}

describe('Users screen', () => {
  it('loads the first page sorted by id descending with the content language, and shows the spec columns', async () => {
    const { api } = setup();
    expect(await screen.findByText('First1')).toBeInTheDocument();
    const [call] = api.callsTo('GET /api/user');
    expect(queryOf(call)).toEqual({ Skip: '0', Take: '10', SortField: 'id', OrderBy: 'false' });
    expect(call.headers.get('Accept-Language')).toBe('1');
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent);
    expect(headers.slice(1)).toEqual(['First name', 'Last name', 'Email', 'Phone number', 'Status', 'Tools']);
    expect(screen.getByRole('heading', { name: 'Users' })).toBeInTheDocument();
    expect(screen.getAllByText('+994 50 123 45 67')).toHaveLength(10);
  });

  it('shows a spinner while the empty list loads, then No information found without pagination', async () => {
    let release: (response: Response) => void = () => undefined;
    setup('/users', [], { 'GET /api/user': () => new Promise<Response>((resolve) => (release = resolve)) });
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeInTheDocument();
    release(json({ data: [], totalCount: 0 }));
    expect(await screen.findByText('No information found')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it("empties the list and says We've lost the connection when loading fails", async () => {
    setup('/users', [], { 'GET /api/user': () => json({ message: 'boom' }, 500) });
    expect(await screen.findByText("We've lost the connection")).toBeInTheDocument();
  });

  it('shows pagination only above 10 rows', async () => {
    setup('/users', makeUsers(10));
    await screen.findByText('First10');
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it('pages through the URL: page 2 asks for Skip=10 and the size resets to page 1', async () => {
    const { api, user, currentPath } = setup();
    await screen.findByText('First1');
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByText('First11')).toBeInTheDocument();
    expect(currentPath()).toBe('/users?page=2');
    expect(queryOf(api.callsTo('GET /api/user').at(-1)!)).toMatchObject({ Skip: '10', Take: '10' });
    await user.selectOptions(screen.getByLabelText('Rows per page'), '25');
    await screen.findByText('First23');
    expect(currentPath()).toBe('/users?size=25');
  });

  it('a header click sorts ascending then descending, back on page 1 with size 10', async () => {
    const { api, user, currentPath } = setup('/users?page=2&size=5');
    await screen.findByText('First6');
    await user.click(within(screen.getByRole('columnheader', { name: 'Email' })).getByRole('button'));
    await waitFor(() => expect(currentPath()).toBe('/users?sort=email&order=asc'));
    await waitFor(() => expect(queryOf(api.calls.at(-1)!)).toEqual({ Skip: '0', Take: '10', SortField: 'email', OrderBy: 'true' }));
    expect(screen.getByRole('columnheader', { name: 'Email' })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(within(screen.getByRole('columnheader', { name: 'Email' })).getByRole('button'));
    await waitFor(() => expect(currentPath()).toBe('/users?sort=email&order=desc'));
    expect(within(screen.getByRole('columnheader', { name: 'Tools' })).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Tools' })).not.toHaveAttribute('aria-sort');
  });

  it('restores page, size, sort and filters from a shared link, using the filter call', async () => {
    const { api } = setup('/users?page=2&size=5&sort=lastName&order=asc&firstName=jo&roleId=2');
    await waitFor(() => expect(api.callsTo('GET /api/user/filter')).toHaveLength(1));
    expect(queryOf(api.calls[0])).toEqual({ Skip: '5', Take: '5', SortField: 'lastName', OrderBy: 'true', FirstName: 'jo', RoleId: '2' });
    expect(screen.getByLabelText('First name')).toHaveValue('jo');
    expect(screen.getByRole('button', { name: /^Hide filter/ })).toBeInTheDocument();
  });

  it('filter typing waits 500 ms, returns to page 1 and switches to the filter call', async () => {
    const { api, user, currentPath } = setup('/users?page=2');
    await screen.findByText('First11');
    await user.click(screen.getByRole('button', { name: 'Show filter' }));
    await user.type(screen.getByLabelText('First name'), 'ada');
    const typedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(api.callsTo('GET /api/user/filter')).toHaveLength(0);
    await waitFor(() => expect(api.callsTo('GET /api/user/filter')).toHaveLength(1));
    expect(Date.now() - typedAt).toBeGreaterThanOrEqual(400);
    expect(queryOf(api.callsTo('GET /api/user/filter')[0])).toMatchObject({ Skip: '0', FirstName: 'ada' });
    expect(currentPath()).toBe('/users?firstName=ada');
    await user.selectOptions(screen.getByLabelText('Role'), 'Call Center');
    await waitFor(() => expect(currentPath()).toBe('/users?firstName=ada&roleId=2'));
  });

  it('selection shows N selected with bulk delete and hides create, export and the filter switch', async () => {
    const { api, user } = setup('/users', makeUsers(23), { 'DELETE /api/user': () => json({ deleted: 2 }) });
    await screen.findByText('First1');
    expect(screen.getByRole('button', { name: 'Create' })).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select row 1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select row 2' }));
    expect(screen.getByText('2 selected')).toBeInTheDocument();
    for (const name of ['Create', 'Export', 'Show filter']) expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Select all rows' }));
    expect(screen.getByText('10 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows' }));
    expect(screen.queryByText(/selected/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create' })).toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Select row 1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select row 3' }));
    await user.click(within(screen.getByRole('group', { name: 'Table actions' })).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete' });
    expect(within(dialog).getByText('Are you sure to delete?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('DELETE /api/user')[0].body).toEqual({ id: [1, 3] });
    await waitFor(() => expect(api.callsTo('GET /api/user')).toHaveLength(2));
    expect(screen.queryByText(/selected/)).not.toBeInTheDocument();
  });

  it('creates a user: phone and role converted, dialog closes, list reloads with the same query', async () => {
    const { api, user } = setup('/users?page=2', makeUsers(23), { 'POST /api/user/register': () => json({ id: 99 }, 201) });
    await screen.findByText('First11');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create User' });
    const form = within(dialog);
    await user.type(form.getByLabelText('First name'), ' Grace ');
    await user.type(form.getByLabelText('Last name'), 'Hopper');
    await user.type(form.getByLabelText('Email'), 'grace@example.com');
    await user.selectOptions(form.getByLabelText('Operator code'), '055');
    await user.type(form.getByLabelText('Phone number'), '7654321');
    expect(form.getByLabelText('Phone number')).toHaveValue('765 43 21');
    await user.type(form.getByLabelText('Password'), 'Secret-123');
    await user.type(form.getByLabelText('Confirm Password'), 'Secret-123');
    await user.click(form.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('POST /api/user/register')[0].body).toEqual({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.com',
      phone: '994557654321',
      roleId: 1,
      password: 'Secret-123',
      confirmPassword: 'Secret-123',
    });
    await waitFor(() => expect(api.callsTo('GET /api/user')).toHaveLength(2));
    expect(queryOf(api.callsTo('GET /api/user')[1])).toMatchObject({ Skip: '10', Take: '10' });
  });

  it('shows validation messages on submit and the server message inside the form, with submit enabled again', async () => {
    const { user } = setup('/users', makeUsers(3), {
      'POST /api/user/register': () => json({ message: 'A user with this e-mail already exists.' }, 409),
    });
    await screen.findByText('First1');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const form = within(await screen.findByRole('dialog', { name: 'Create User' }));
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(form.getByText('Firstname is required')).toBeInTheDocument();
    expect(form.getByText('Email is required')).toBeInTheDocument();
    expect(form.getByText('Password is required')).toBeInTheDocument();
    expect(form.getByText('Confirm Password is required')).toBeInTheDocument();

    await user.type(form.getByLabelText('First name'), 'Ada');
    await user.type(form.getByLabelText('Last name'), 'L');
    await user.type(form.getByLabelText('Email'), 'ada@example.com');
    await user.type(form.getByLabelText('Password'), 'Secret-123');
    await user.type(form.getByLabelText('Confirm Password'), 'Secret-123');
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText('A user with this e-mail already exists.')).toBeInTheDocument();
    expect(form.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('edits a user loaded from GET user/{id}, phone parsed back and sent again', async () => {
    const rows = makeUsers(3);
    const { api, user } = setup('/users', rows, {
      'GET /api/user/2': () => json({ ...rows[1], phone: '994707654321', roleId: 2 }),
      'PUT /api/user': () => json(rows[1]),
    });
    await screen.findByText('First2');
    const row = screen.getByRole('row', { name: /First2/ });
    await user.click(within(row).getByRole('button', { name: 'Edit' }));
    const form = within(await screen.findByRole('dialog', { name: 'Edit' }));
    expect(await form.findByLabelText('Phone number')).toHaveValue('765 43 21');
    expect(form.getByLabelText('Operator code')).toHaveValue('070');
    expect(form.getByLabelText('Role')).toHaveValue('2');
    await user.clear(form.getByLabelText('Last name'));
    await user.type(form.getByLabelText('Last name'), 'Changed');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('PUT /api/user')).toHaveLength(1));
    expect(api.callsTo('PUT /api/user')[0].body).toEqual({
      id: 2,
      firstName: 'First2',
      lastName: 'Changed',
      email: 'user2@example.com',
      phone: '994707654321',
      roleId: 2,
    });
  });

  it('toggles the status by sending the opposite value, then reloads', async () => {
    const { api, user } = setup('/users', makeUsers(3), { 'PATCH /api/user/active': () => json({}) });
    await screen.findByText('First1');
    await user.click(screen.getByRole('switch', { name: 'Change status: First1 Last1' }));
    await waitFor(() => expect(api.callsTo('PATCH /api/user/active')).toHaveLength(1));
    expect(api.callsTo('PATCH /api/user/active')[0].body).toEqual({ id: 1, isActive: false });
    await waitFor(() => expect(api.callsTo('GET /api/user')).toHaveLength(2));
  });

  it('opens the User details drawer and the QR code dialog', async () => {
    const rows = makeUsers(3);
    const { user } = setup('/users', rows, {
      'GET /api/user/1': () => json(rows[0]),
      'GET /api/user/get-qr': ({ url }) => json({ data: `data:image/png;base64,QR${url.searchParams.get('id')}` }),
    });
    await screen.findByText('First1');
    const row = screen.getByRole('row', { name: /First1/ });
    await user.click(within(row).getByRole('button', { name: 'View' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'User details' }));
    expect(drawer.getByText('user1@example.com')).toBeInTheDocument();
    expect(drawer.getByText('Active')).toBeInTheDocument();
    expect(drawer.getByText('User')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(within(row).getByRole('button', { name: 'QR code' }));
    const qr = await screen.findByRole('img', { name: 'QR code: First1 Last1' });
    expect(qr).toHaveAttribute('src', 'data:image/png;base64,QR1');
  });

  it("changes another user's password with the admin's own password and enforces equality", async () => {
    const { api, user } = setup('/users', makeUsers(3), { 'PUT /api/user/changePassword': () => json({}) });
    await screen.findByText('First1');
    const row = screen.getByRole('row', { name: /First3/ });
    await user.click(within(row).getByRole('button', { name: 'Change Password' }));
    const form = within(await screen.findByRole('dialog', { name: 'Change Password' }));
    await user.type(form.getByLabelText('Your password'), 'adminpass1');
    await user.type(form.getByLabelText('New password'), 'newpass12');
    await user.type(form.getByLabelText('Confirm new password'), 'newpass13');
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(form.getByText('Both password need to be the same')).toBeInTheDocument();
    await user.clear(form.getByLabelText('Confirm new password'));
    await user.type(form.getByLabelText('Confirm new password'), 'newpass12');
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('PUT /api/user/changePassword')).toHaveLength(1));
    expect(api.callsTo('PUT /api/user/changePassword')[0].body).toEqual({
      id: 3,
      oldPassword: 'adminpass1',
      newPassword: 'newpass12',
      newPasswordConfirm: 'newpass12',
    });
  });

  it('exports Users.xlsx with the current filters, reading the stream', async () => {
    const { api, user } = setup('/users?email=ex', makeUsers(3), {
      'GET /api/user/export': () =>
        new Response(new Blob(['xlsx-bytes']), { headers: { 'Content-Length': '10', 'Content-Type': 'application/vnd.ms-excel' } }),
    });
    const saved = captureDownloads();
    await screen.findByText('First1');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(saved).toEqual(['Users.xlsx']));
    expect(queryOf(api.callsTo('GET /api/user/export')[0])).toEqual({ Email: 'ex' });
  });

  it('hides every changing control from the read-only Call Center role', async () => {
    signedIn({}, { ...admin, roleId: 2 });
    mockApi({ 'GET /api/user': pageOf(makeUsers(3)) });
    renderAt('/users', <UsersPage />);
    await screen.findByText('First1');
    expectReadOnlyList(3);
  });
});
