import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from './routes';
import { readStoredSession } from '../lib/session';
import { admin, json, mockApi, tokens } from '../testing/api';
import { renderAt } from '../testing/render';

const user = () => userEvent.setup();

async function fillSignIn(actor: ReturnType<typeof user>, userName: string, password: string, otp: string) {
  await actor.type(await screen.findByPlaceholderText('Email and agent number'), userName);
  await actor.type(screen.getByLabelText('Password'), password);
  await actor.type(screen.getByLabelText('One-time code'), otp);
  await actor.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('sign-in screen', () => {
  it('shows the spec messages for an empty form', async () => {
    const actor = user();
    renderAt('/auth/login', <AppRoutes />);
    await actor.click(await screen.findByRole('button', { name: 'Sign In' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Required field')).toBeInTheDocument();
    expect(screen.getByText('Otp is required')).toBeInTheDocument();
  });

  it('trims, signs in with a spinner, stores the session with the profile and returns to where the user was going', async () => {
    let answer: (response: Response) => void = () => undefined;
    const api = mockApi({
      'POST /api/auth/admin/token': () => new Promise<Response>((resolve) => (answer = resolve)),
      'GET /api/auth/profile': () => json(admin),
      'GET /api/user': () => json({ data: [], totalCount: 0 }),
    });
    const actor = user();
    const view = renderAt('/auth/login?returnTo=%2Fusers%3Fpage%3D2', <AppRoutes />);
    await fillSignIn(actor, '  ada@example.com ', ' Secret-123 ', '123456');
    expect(screen.getByRole('button', { name: 'Sign In' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeDisabled();
    expect(api.callsTo('POST /api/auth/admin/token')[0].body).toEqual({ userName: 'ada@example.com', password: 'Secret-123', otp: '123456' });
    answer(json(tokens(1)));
    await waitFor(() => expect(view.currentPath()).toBe('/users?page=2'));
    expect(readStoredSession()).toMatchObject({ user: admin, authToken: 'access-1', refreshToken: 'refresh-1' });
    expect(api.callsTo('GET /api/auth/profile')[0].headers.get('Authorization')).toBe('Bearer access-1');
  });

  it('signs in with a recovery code instead of the six digits, then asks for a new authenticator before anything else', async () => {
    const api = mockApi({
      'POST /api/auth/admin/token': () => json(tokens(1)),
      'GET /api/auth/profile': () => json({ ...admin, mustSetUpAuthenticator: true }),
      'GET /api/auth/recoveryCodes': () => json({ left: 9 }),
    });
    const actor = user();
    const view = renderAt('/auth/login?returnTo=%2Fusers', <AppRoutes />);
    await actor.click(await screen.findByRole('button', { name: 'Lost your authenticator? Use a recovery code' }));
    expect(screen.queryByLabelText('One-time code')).toBeNull();
    await actor.type(screen.getByPlaceholderText('Email and agent number'), 'ada@example.com');
    await actor.type(screen.getByLabelText('Password'), 'Secret-123');
    await actor.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Enter one of your recovery codes')).toBeInTheDocument();
    await actor.type(screen.getByLabelText('Recovery code'), ' abcde-12345 ');
    await actor.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() =>
      expect(api.callsTo('POST /api/auth/admin/token')[0].body).toEqual({
        userName: 'ada@example.com',
        password: 'Secret-123',
        otp: '',
        recoveryCode: 'abcde-12345',
      }),
    );
    await waitFor(() => expect(view.currentPath()).toBe('/my-page'));
    expect(await screen.findByText('You signed in with a recovery code. Set up your authenticator again to go on.')).toBeInTheDocument();
    expect(await screen.findByText('Recovery codes left: 9')).toBeInTheDocument();
  });

  it('shows You are locked. as an info alert', async () => {
    mockApi({ 'POST /api/auth/admin/token': () => json({ message: 'You are locked.' }, 423) });
    const actor = user();
    renderAt('/auth/login', <AppRoutes />);
    await fillSignIn(actor, 'ada@example.com', 'x', '1');
    const alert = await screen.findByRole('status');
    expect(alert).toHaveTextContent('You are locked.');
    expect(alert).toHaveAttribute('data-tone', 'info');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });

  it.each([
    [401, 'Invalid credentials.'],
    [429, 'Too many sign-in attempts.'],
  ])('shows The login detail is incorrect in danger style for a %i', async (status, message) => {
    mockApi({ 'POST /api/auth/admin/token': () => json({ message }, status) });
    const actor = user();
    renderAt('/auth/login', <AppRoutes />);
    await fillSignIn(actor, 'ada@example.com', 'wrong', '000000');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The login detail is incorrect');
    expect(alert).toHaveAttribute('data-tone', 'danger');
  });
});

async function fillRegistration(actor: ReturnType<typeof user>, confirmation: string) {
  await actor.type(await screen.findByLabelText('Full name'), 'Ada Lovelace');
  await actor.type(screen.getByLabelText('Email'), 'ada@example.com');
  await actor.type(screen.getByLabelText('Username'), 'ada');
  await actor.type(screen.getByLabelText('Password'), 'secret');
  await actor.type(screen.getByLabelText('Confirm Password'), confirmation);
}

describe('registration screen', () => {
  it('says registration is closed when the server does not allow it', async () => {
    mockApi({ 'GET /api/auth/settings': () => json({ allowRegistration: false }) });
    renderAt('/auth/registration', <AppRoutes />);
    expect(await screen.findByText('Registration is closed. Accounts are created by an administrator.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/auth/login');
  });

  it('enables submit only when valid and the terms are accepted, then says the account awaits activation', async () => {
    const api = mockApi({
      'GET /api/auth/settings': () => json({ allowRegistration: true }),
      'POST /api/auth/register': () => json({ message: 'Registered.' }, 201),
    });
    const actor = user();
    renderAt('/auth/registration', <AppRoutes />);
    await fillRegistration(actor, 'secreT');
    await actor.tab();
    expect(screen.getByText("Password and Confirm Password didn't match")).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
    await actor.clear(screen.getByLabelText('Confirm Password'));
    await actor.type(screen.getByLabelText('Confirm Password'), 'secret');
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
    expect(screen.getByRole('link', { name: /^terms and conditions/ })).toHaveAttribute('target', '_blank');
    await actor.click(screen.getByRole('checkbox', { name: /I agree to the/ }));
    await actor.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Your account has been created. It stays inactive until an administrator activates it.')).toBeInTheDocument();
    expect(api.callsTo('POST /api/auth/register')[0].body).toEqual({
      email: 'ada@example.com',
      fullname: 'Ada Lovelace',
      username: 'ada',
      password: 'secret',
    });
  });

  it('shows The login detail is incorrect when registration fails', async () => {
    mockApi({
      'GET /api/auth/settings': () => json({ allowRegistration: true }),
      'POST /api/auth/register': () => json({ message: 'A user with this e-mail already exists.' }, 409),
    });
    const actor = user();
    renderAt('/auth/registration', <AppRoutes />);
    await fillRegistration(actor, 'secret');
    await actor.click(screen.getByRole('checkbox', { name: /I agree to the/ }));
    await actor.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The login detail is incorrect');
  });
});

describe('forgot-password screen', () => {
  it('shows The requested {email} is not found on failure', async () => {
    mockApi({ 'PUT /api/auth/reset-password': () => json({ message: 'nope' }, 500) });
    const actor = user();
    renderAt('/auth/forgot-password', <AppRoutes />);
    await actor.type(await screen.findByLabelText('Email'), ' who@example.com ');
    await actor.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The requested who@example.com is not found');
  });

  // /auth replaces itself with /auth/login, so the recorded history ends there.
  it('validates the e-mail and goes to /auth on success, with the server message on the sign-in screen', async () => {
    const api = mockApi({ 'PUT /api/auth/reset-password': () => json({ message: 'If the address is registered, a reset link is on its way.' }) });
    const actor = user();
    const view = renderAt('/auth/forgot-password', <AppRoutes />);
    await actor.type(await screen.findByLabelText('Email'), 'ada@');
    await actor.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByText('Wrong email format. E.g. name@example.com')).toBeInTheDocument();
    await actor.type(screen.getByLabelText('Email'), 'example.com');
    await actor.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(view.currentPath()).toBe('/auth/login'));
    expect(await screen.findByText('If the address is registered, a reset link is on its way.')).toBeInTheDocument();
    expect(api.callsTo('PUT /api/auth/reset-password')[0].body).toEqual({ email: 'ada@example.com' });
  });
});

describe('reset-password screen', () => {
  it('explains a link without a token', async () => {
    renderAt('/auth/reset-password', <AppRoutes />);
    expect(await screen.findByText('This reset link is incomplete. Request a new one from the sign-in page.')).toBeInTheDocument();
  });

  it('applies the new-password rules and sends the token', async () => {
    const api = mockApi({ 'POST /api/auth/reset-password/confirm': () => json({ message: 'Password changed.' }) });
    const actor = user();
    const view = renderAt('/auth/reset-password?token=abc', <AppRoutes />);
    await actor.type(await screen.findByLabelText('New password'), 'abcdefgh');
    await actor.type(screen.getByLabelText('Confirm new password'), 'abcdefg1');
    await actor.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByText('Password must consist of a letter, a number.')).toBeInTheDocument();
    expect(screen.getByText('Both new password need to be the same')).toBeInTheDocument();
    await actor.clear(screen.getByLabelText('New password'));
    await actor.type(screen.getByLabelText('New password'), 'abcdefg1');
    await actor.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(view.currentPath()).toBe('/auth/login'));
    expect(api.callsTo('POST /api/auth/reset-password/confirm')[0].body).toEqual({
      token: 'abc',
      newPassword: 'abcdefg1',
      newPasswordConfirm: 'abcdefg1',
    });
    expect(await screen.findByText('Your password has been changed. You can sign in with it now.')).toBeInTheDocument();
  });

  it('shows the server message for an expired link', async () => {
    mockApi({ 'POST /api/auth/reset-password/confirm': () => json({ message: 'This reset link has expired.' }, 400) });
    const actor = user();
    renderAt('/auth/reset-password?token=old', <AppRoutes />);
    await actor.type(await screen.findByLabelText('New password'), 'abcdefg1');
    await actor.type(screen.getByLabelText('Confirm new password'), 'abcdefg1');
    await actor.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This reset link has expired.');
  });
});
