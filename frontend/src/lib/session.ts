import { computed, signal } from '@preact/signals-react';

export const SESSION_STORAGE_KEY = 'persist:perkdesk-auth';

export interface UserProfile {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  roleId: number;
  isActive: boolean;
  /** Signed in with a recovery code: the panel asks for a new authenticator before anything else. */
  mustSetUpAuthenticator?: boolean;
}

export interface Session {
  user: UserProfile | null;
  authToken: string;
  refreshToken: string;
  /** ISO 8601 instant after which the access token is no longer accepted. */
  expireDate: string;
}

/** What the sign-in and refresh calls return. */
export interface TokenResponse {
  token: string;
  expiresAt: string;
  refreshToken: string;
}

export function readStoredSession(): Session | null {
  try {
    const raw = localStorage.getItem(SESSION_STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Session>;
    if (typeof parsed.authToken !== 'string' || typeof parsed.refreshToken !== 'string') return null;
    return {
      user: parsed.user ?? null,
      authToken: parsed.authToken,
      refreshToken: parsed.refreshToken,
      expireDate: String(parsed.expireDate ?? ''),
    };
  } catch {
    return null;
  }
}

export const session = signal<Session | null>(readStoredSession());
export const currentUser = computed(() => session.value?.user ?? null);
/** The spec: a user counts as authenticated when the stored session holds a user. */
export const isAuthenticated = computed(() => currentUser.value !== null);

function persist(next: Session | null) {
  if (next) localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(next));
  else localStorage.removeItem(SESSION_STORAGE_KEY);
  session.value = next;
}

export function storeTokens(tokens: TokenResponse) {
  persist({
    user: session.peek()?.user ?? null,
    authToken: tokens.token,
    refreshToken: tokens.refreshToken,
    expireDate: tokens.expiresAt,
  });
}

export function storeUser(user: UserProfile) {
  const current = session.peek();
  if (current) persist({ ...current, user });
}

/** Adopts a session another tab wrote, without writing storage again. */
export function adoptSession(next: Session | null) {
  session.value = next;
}

export function clearSession() {
  persist(null);
}

export function isExpired(s: Pick<Session, 'expireDate'>, now = Date.now()): boolean {
  const expiry = Date.parse(s.expireDate);
  return Number.isNaN(expiry) || expiry <= now;
}

/**
 * Keeps this tab in step with the others: a sign-in, a token rotation or a
 * logout in one tab shows up in every tab. Returns the unsubscribe function.
 */
export function syncSessionAcrossTabs(): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key !== SESSION_STORAGE_KEY && event.key !== null) return;
    adoptSession(readStoredSession());
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
