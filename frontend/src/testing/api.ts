import { vi } from 'vitest';
import { SESSION_STORAGE_KEY, adoptSession, type Session, type UserProfile } from '../lib/session';

export interface RecordedCall {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

export type Handler = (call: RecordedCall) => Response | Promise<Response>;

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

/**
 * Replaces fetch with a table of handlers keyed "METHOD /api/path" (the query
 * string is not part of the key). Unknown calls answer 404 so a test notices.
 */
export function mockApi(routes: Record<string, Handler>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
    const call = { method, url, headers: new Headers(init.headers), body };
    calls.push(call);
    const handler = routes[`${method} ${url.pathname}`];
    return handler ? handler(call) : json({ message: `No mock for ${method} ${url.pathname}` }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock, callsTo: (key: string) => calls.filter((call) => `${call.method} ${call.url.pathname}` === key) };
}

export const admin: UserProfile = {
  // Not among the ids the screen tests list (1, 2, ...): their rows are other people's.
  id: 99,
  firstName: 'Ada',
  lastName: 'Admin',
  email: 'ada@example.com',
  phone: '994501234567',
  roleId: 0,
  isActive: true,
};

/** Stores a signed-in session as if the user had signed in earlier. */
export function signedIn(overrides: Partial<Session> = {}, user: UserProfile | null = admin): Session {
  const session: Session = {
    user,
    authToken: 'access-1',
    refreshToken: 'refresh-1',
    expireDate: new Date(Date.now() + 15 * 60_000).toISOString(),
    ...overrides,
  };
  localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
  adoptSession(session);
  return session;
}

export const tokens = (n: number, expiresInMs = 15 * 60_000) => ({
  token: `access-${n}`,
  refreshToken: `refresh-${n}`,
  expiresAt: new Date(Date.now() + expiresInMs).toISOString(),
});

/** A server holding `rows`: answers pages by Skip/Take like the real list endpoints. */
export const pageOf =
  <Row>(rows: Row[]): Handler =>
  ({ url }) => {
    const skip = Number(url.searchParams.get('Skip') ?? 0);
    const take = Number(url.searchParams.get('Take') ?? rows.length);
    return json({ data: rows.slice(skip, skip + take), totalCount: rows.length });
  };

/** The query string of a recorded call as an object. */
export const queryOf = (call: RecordedCall) => Object.fromEntries(call.url.searchParams);

/** A multipart body as [name, value] pairs in sending order; files show as `File:<name>`. */
export function multipartEntries(form: FormData): [string, string][] {
  return [...form.entries()].map(([name, value]) => [name, value instanceof File ? `File:${value.name}` : value]);
}

/** The multipart body of a recorded call (see multipartEntries). */
export function multipartOf(call: RecordedCall): [string, string][] {
  if (!(call.body instanceof FormData)) throw new Error(`${call.method} ${call.url.pathname} did not send multipart`);
  return multipartEntries(call.body);
}

/** Catches saved downloads: returns the file names the app saved through a link click. */
export function captureDownloads(): string[] {
  const saved: string[] = [];
  URL.createObjectURL = () => 'blob:download';
  URL.revokeObjectURL = () => undefined;
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
  return saved;
}
