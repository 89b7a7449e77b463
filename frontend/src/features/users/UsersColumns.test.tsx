import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { columnChoiceKey, loadColumnChoice, saveColumnChoice } from '../../lib/columnChoice';
import { admin, mockApi, pageOf, signedIn } from '../../testing/api';
import { renderAt } from '../../testing/render';
import UsersPage from './UsersPage';

const rows = [{ id: 1, firstName: 'Aysel', lastName: 'Məmmədova', email: 'aysel@example.com', phone: '994501234567', roleId: 1, roleName: 'User', isActive: true }];

const headers = () => screen.getAllByRole('columnheader').map((th) => th.textContent);

describe('the Columns button of a list', () => {
  it('hides and shows a column, remembers it for this person on this screen, and resets', async () => {
    signedIn();
    mockApi({ 'GET /api/user': pageOf(rows) });
    const user = userEvent.setup();
    const first = renderAt('/users', <UsersPage />);
    await screen.findByText('Aysel');
    expect(headers().slice(1)).toEqual(['First name', 'Last name', 'Email', 'Phone number', 'Status', 'Tools']);

    await user.click(screen.getByRole('button', { name: 'Columns' }));
    const chooser = screen.getByRole('group', { name: 'Show columns' });
    expect(within(chooser).getAllByRole('checkbox').map((box) => (box as HTMLInputElement).checked)).toEqual([true, true, true, true, true]);
    await user.click(within(chooser).getByRole('checkbox', { name: 'Email' }));
    expect(headers().slice(1)).toEqual(['First name', 'Last name', 'Phone number', 'Status', 'Tools']);
    expect(screen.getByRole('button', { name: /Columns/ })).toHaveTextContent('1 hidden');
    expect(loadColumnChoice(admin.id, 'users.title')).toEqual({ email: false });

    // The choice survives leaving the screen (a reload reads the same storage).
    first.unmount();
    renderAt('/users', <UsersPage />);
    await screen.findByText('Aysel');
    expect(headers().slice(1)).toEqual(['First name', 'Last name', 'Phone number', 'Status', 'Tools']);

    await user.click(screen.getByRole('button', { name: /Columns/ }));
    await user.click(screen.getByRole('button', { name: 'Reset columns' }));
    expect(headers().slice(1)).toEqual(['First name', 'Last name', 'Email', 'Phone number', 'Status', 'Tools']);
    expect(localStorage.getItem(columnChoiceKey(admin.id, 'users.title'))).toBeNull();
  });

  it('never hides the last column that shows', async () => {
    signedIn();
    mockApi({ 'GET /api/user': pageOf(rows) });
    saveColumnChoice(admin.id, 'users.title', { firstName: false, lastName: false, email: false, phone: false });
    const user = userEvent.setup();
    renderAt('/users', <UsersPage />);
    await screen.findByText('Active');
    await user.click(screen.getByRole('button', { name: /Columns/ }));
    expect(screen.getByRole('checkbox', { name: 'Status' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Email' })).toBeEnabled();
  });
});
