import { api, request } from './api';
import { clearSession, session, storeTokens, storeUser, type TokenResponse, type UserProfile } from './session';

export interface SignInRequest {
  userName: string;
  password: string;
  otp: string;
  /** In place of `otp`: one of the account's recovery codes. */
  recoveryCode?: string;
}

export async function loadProfile(): Promise<UserProfile> {
  const profile = await api.get<UserProfile>('auth/profile');
  storeUser(profile);
  return profile;
}

/**
 * Checks a stored session against the server (the profile call refreshes an
 * expired token on the way); settles, never rejects, and at once when there is
 * no stored session. A failure is left to the screens, which send the user to
 * sign in when the session is gone.
 */
export function checkStoredSession(): Promise<void> {
  if (!session.peek()) return Promise.resolve();
  return loadProfile().then(
    () => undefined,
    () => undefined,
  );
}

/** Stores the tokens, then the profile; the user only counts as signed in once both are known. */
export async function signIn(credentials: SignInRequest): Promise<UserProfile> {
  const tokens = await request<TokenResponse>('auth/admin/token', {
    method: 'POST',
    body: credentials,
    anonymous: true,
  });
  storeTokens(tokens);
  try {
    return await loadProfile();
  } catch (error) {
    clearSession();
    throw error;
  }
}

/** Revokes the session on the server when possible; the local session is cleared either way. */
export async function signOut(): Promise<void> {
  const refreshToken = session.peek()?.refreshToken;
  try {
    if (refreshToken) await request('auth/logout', { method: 'POST', body: { refreshToken }, skipRefresh: true });
  } catch {
    // The server may already have revoked it; the user still leaves.
  } finally {
    clearSession();
  }
}

export const publicAuth = {
  settings: () => request<{ allowRegistration: boolean }>('auth/settings', { anonymous: true }),
  register: (body: { email: string; fullname: string; username: string; password: string }) =>
    request<{ message: string }>('auth/register', { method: 'POST', body, anonymous: true }),
  requestPasswordReset: (email: string) =>
    request<{ message: string }>('auth/reset-password', { method: 'PUT', body: { email }, anonymous: true }),
  confirmPasswordReset: (body: { token: string; newPassword: string; newPasswordConfirm: string }) =>
    request<{ message: string }>('auth/reset-password/confirm', { method: 'POST', body, anonymous: true }),
};
