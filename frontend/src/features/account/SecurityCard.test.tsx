import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { admin, json, mockApi, signedIn } from '../../testing/api';
import { renderAt } from '../../testing/render';
import ProfilePage from './ProfilePage';

const CODES = ['abcde-12345', 'fghjk-67890', 'mnpqr-23456', 'stvwx-34567', 'yz012-45678', '34567-abcde', '89abc-fghjk', 'defgh-mnpqr', 'jkmnp-stvwx', 'qrstv-yz012'];

function setup() {
  signedIn({}, admin);
  const api = mockApi({
    'GET /api/auth/profile': () => json(admin),
    'GET /api/auth/recoveryCodes': () => json({ left: 3 }),
    'POST /api/auth/recoveryCodes': (call) =>
      (call.body as { password: string }).password === 'Secret-123'
        ? json({ recoveryCodes: CODES })
        : json({ message: 'The password is not correct.', errors: { password: 'The password is not correct.' } }, 403),
    'POST /api/auth/authenticator': () => json({ data: 'data:image/png;base64,AAAA', secret: 'JBSWY3DPEHPK3PXP' }),
    'PUT /api/auth/authenticator': () => json({ recoveryCodes: CODES }),
  });
  renderAt('/my-page', <ProfilePage />);
  return { api, user: userEvent.setup() };
}

describe('own account: two-step sign-in', () => {
  it('counts the codes left and makes a new set behind the password, shown once', async () => {
    const { api, user } = setup();
    expect(await screen.findByText('Recovery codes left: 3')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New recovery codes' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'New recovery codes' }));
    await user.type(dialog.getByLabelText('Password'), 'Wrong-1');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await dialog.findByText('The password is not correct.')).toBeInTheDocument();
    await user.clear(dialog.getByLabelText('Password'));
    await user.type(dialog.getByLabelText('Password'), 'Secret-123');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Recovery codes' }));
    const list = dialog.getByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(CODES);
    expect(api.callsTo('POST /api/auth/recoveryCodes').length).toBe(2);
  });

  it('sets up a new authenticator: password, then the QR code and a code from the app, then the new codes', async () => {
    const { api, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Set up authenticator' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Set up authenticator' }));
    await user.type(dialog.getByLabelText('Password'), 'Secret-123');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('img', { name: /QR code/ })).toBeInTheDocument());
    dialog = within(screen.getByRole('dialog', { name: 'Set up authenticator' }));
    expect(dialog.getByText('JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
    await user.type(dialog.getByLabelText('One-time code'), '123456');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('PUT /api/auth/authenticator')[0]?.body).toEqual({ otp: '123456' }));
    expect(await screen.findByRole('list', { name: 'Recovery codes' })).toBeInTheDocument();
  });
});
