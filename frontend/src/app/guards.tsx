import { useSignals } from '@preact/signals-react/runtime';
import type { ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { currentUser, isAuthenticated } from '../lib/session';

/** Where a user signed in with a recovery code sets up the authenticator again. */
export const AUTHENTICATOR_SETUP_PATH = '/my-page';

/** Only same-site paths may be a return target, never `//evil.example` or a full URL. */
export function safeReturnTo(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/auth') ? value : '/';
}

export function RequireAuth({ children }: { children: ReactNode }) {
  useSignals();
  const [location] = useLocation();
  const search = useSearch();
  if (isAuthenticated.value) {
    // After a sign-in with a recovery code, the authenticator comes first.
    if (currentUser.value?.mustSetUpAuthenticator && location !== AUTHENTICATOR_SETUP_PATH) {
      return <Redirect to={AUTHENTICATOR_SETUP_PATH} replace />;
    }
    return <>{children}</>;
  }
  const target = `${location}${search ? `?${search}` : ''}`;
  const returnTo = target === '/' ? '' : `?returnTo=${encodeURIComponent(target)}`;
  return <Redirect to={`/auth/login${returnTo}`} replace />;
}

/** Auth screens are for visitors; a signed-in user goes back where they were heading, or home. */
export function GuestOnly({ children }: { children: ReactNode }) {
  useSignals();
  const search = useSearch();
  if (!isAuthenticated.value) return <>{children}</>;
  return <Redirect to={safeReturnTo(new URLSearchParams(search).get('returnTo'))} replace />;
}
