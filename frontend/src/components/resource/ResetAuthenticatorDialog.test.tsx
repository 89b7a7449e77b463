import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockApi, signedIn } from '../../testing/api';
import { ResetAuthenticatorDialog } from './QrCodeDialog';

describe('resetting an authenticator', () => {
  it('asks first, then shows the new QR code once', async () => {
    signedIn();
    const api = mockApi({
      'PUT /api/user/resetAuthenticator': () => json({ data: 'data:image/png;base64,AAAA', secret: 'JBSWY3DPEHPK3PXPQ', recoveryCodes: [] }),
    });
    const onClose = vi.fn();
    render(<ResetAuthenticatorDialog userId={7} name="Rəşad Əliyev" onClose={onClose} />);
    expect(screen.getByText(/Give Rəşad Əliyev a new authenticator\?/)).toBeInTheDocument();
    expect(api.callsTo('PUT /api/user/resetAuthenticator')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Reset authenticator' }));
    expect(await screen.findByRole('img', { name: 'QR code: Rəşad Əliyev' })).toHaveAttribute('src', 'data:image/png;base64,AAAA');
    expect(api.callsTo('PUT /api/user/resetAuthenticator')[0]?.body).toEqual({ id: 7 });
    // The key to read out by phone, in groups of four; Copy takes it whole, as the app wants it.
    const key = within(screen.getByRole('group', { name: 'Key' }));
    expect(key.getByText('JBSW Y3DP EHPK 3PXP Q')).toBeInTheDocument();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await userEvent.click(key.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('JBSWY3DPEHPK3PXPQ');
    expect(await key.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await userEvent.click(screen.getAllByRole('button', { name: 'Close' }).at(-1)!);
    expect(onClose).toHaveBeenCalled();
  });

  it('keeps the server’s refusal in the dialog', async () => {
    signedIn();
    mockApi({ 'PUT /api/user/resetAuthenticator': () => json({ message: 'No such user' }, 404) });
    render(<ResetAuthenticatorDialog userId={7} name="Rəşad Əliyev" onClose={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Reset authenticator' }));
    expect(await screen.findByText('No such user')).toBeInTheDocument();
    expect(screen.queryByRole('img')).toBeNull();
  });
});
