import { contentLanguage, t, translateText } from './i18n';
import {
  adoptSession,
  clearSession,
  isExpired,
  readStoredSession,
  session,
  storeTokens,
  type Session,
  type TokenResponse,
} from './session';

const API_BASE = '/api';
/** The one 401 message that means "wrong password or code", never "token stale". */
export const INVALID_CREDENTIALS = 'Invalid credentials.';

export class ApiError extends Error {
  readonly status: number;
  readonly errors: Record<string, string>;

  constructor(status: number, message: string, errors: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
  }
}

/** The text to show for a failure: the server's `message` for an ApiError. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export interface ListResponse<Row> {
  data: Row[];
  totalCount: number;
}

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue>;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: Method;
  query?: Query;
  /** A plain object is sent as JSON; FormData as multipart. */
  body?: unknown;
  /**
   * Reads of localised data (lists, and the records behind drawers and edit
   * forms) carry the content language (Accept-Language 1 Az, 2 En, 3 Ru), so a
   * record's names match the list and pickers it was opened from.
   */
  localized?: boolean;
  signal?: AbortSignal;
  /** Public auth endpoints: no bearer token, no refresh. */
  anonymous?: boolean;
  /** Sends the current token as it is and never refreshes (sign-out). */
  skipRefresh?: boolean;
  /** An earlier answer's ETag: the server answers 304, no body, while its data has not changed. */
  ifNoneMatch?: string;
}

export function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    params.append(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}/${path.replace(/^\/+/, '')}${search ? `?${search}` : ''}`;
}

async function errorFrom(response: Response): Promise<ApiError> {
  let message = t('error.requestFailed', { status: response.status });
  let errors: Record<string, string> = {};
  try {
    const body = (await response.json()) as { message?: unknown; errors?: unknown };
    // The server words its messages in English; the interface language's catalogue has them.
    if (typeof body.message === 'string' && body.message) message = translateText(body.message);
    if (body.errors && typeof body.errors === 'object') {
      errors = Object.fromEntries(Object.entries(body.errors).map(([field, text]) => [field, typeof text === 'string' ? translateText(text) : String(text)]));
    }
  } catch {
    // Not JSON (a proxy error page, an empty body): the status line is all we have.
  }
  return new ApiError(response.status, message, errors);
}

async function fetchOrLost(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, t('table.connectionLost'));
  }
}

// ---- token refresh -------------------------------------------------------

let refreshInFlight: Promise<Session> | null = null;

/**
 * Runs `task` while holding a lock shared by every tab of this origin. Refresh
 * tokens are single use and a spent one revokes the whole session, so two tabs
 * refreshing at once would log each other out.
 */
function exclusiveAcrossTabs<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (locks?.request) return locks.request('perkdesk-refresh', task) as Promise<T>;
  return task();
}

async function rotateTokens(seenRefreshToken: string): Promise<Session> {
  // Another tab may have rotated (or ended) the session while we waited for the lock.
  const stored = readStoredSession();
  if (!stored) {
    adoptSession(null);
    throw new ApiError(401, 'Your session has ended.');
  }
  if (stored.refreshToken !== seenRefreshToken && !isExpired(stored)) {
    adoptSession(stored);
    return stored;
  }
  const response = await fetchOrLost(buildUrl('auth/refreshToken'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'x-requestid': crypto.randomUUID() },
    body: JSON.stringify({ refreshToken: stored.refreshToken }),
  });
  if (!response.ok) {
    const error = await errorFrom(response);
    clearSession();
    throw error;
  }
  storeTokens((await response.json()) as TokenResponse);
  return session.peek() as Session;
}

/**
 * Exchanges the refresh token once for every caller that saw `seenRefreshToken`
 * (single flight within the tab, a Web Lock across tabs). A refused refresh
 * clears the session, which sends the guards to /auth/login.
 */
function refreshSession(seenRefreshToken: string): Promise<Session> {
  refreshInFlight ??= exclusiveAcrossTabs(() => rotateTokens(seenRefreshToken)).finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

// ---- requests ------------------------------------------------------------

function buildInit(options: RequestOptions, token: string | undefined, requestId: string | undefined): RequestInit {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.localized) headers['Accept-Language'] = String(contentLanguage.peek());
  if (requestId) headers['x-requestid'] = requestId;
  if (options.ifNoneMatch) headers['If-None-Match'] = options.ifNoneMatch;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  return { method: options.method ?? 'GET', headers, body, signal: options.signal };
}

async function messageOf(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.clone().json()) as { message?: unknown };
    return typeof body.message === 'string' ? body.message : undefined;
  } catch {
    return undefined;
  }
}

/** Sends a request with the session rules applied and returns the successful Response. */
export async function send(path: string, options: RequestOptions = {}): Promise<Response> {
  const url = buildUrl(path, options.query);
  const method = options.method ?? 'GET';
  // One id per logical mutation: a retry after a refresh is the same request.
  const requestId = method === 'GET' ? undefined : crypto.randomUUID();

  let current = options.anonymous ? null : session.peek();
  const mayRefresh = current !== null && !options.skipRefresh;
  if (current && mayRefresh && isExpired(current)) current = await refreshSession(current.refreshToken);

  let response = await fetchOrLost(url, buildInit(options, current?.authToken, requestId));
  if (response.status === 401 && current && mayRefresh && (await messageOf(response)) !== INVALID_CREDENTIALS) {
    current = await refreshSession(current.refreshToken);
    response = await fetchOrLost(url, buildInit(options, current.authToken, requestId));
  }
  const unchanged = response.status === 304 && options.ifNoneMatch !== undefined;
  if (!response.ok && !unchanged) throw await errorFrom(response);
  return response;
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

// ---- lists kept with their ETag ------------------------------------------

/** List answers kept, the most recently used last; beyond this many the oldest goes. */
export const MAX_KEPT_LISTS = 32;
const keptLists = new Map<string, { etag: string; text: string }>();

/** Forgets every kept list (tests; a list is also never reused across users or languages). */
export function forgetKeptLists() {
  keptLists.clear();
}
// Signed out: nothing of the session's lists stays in the tab's memory.
session.subscribe((current) => {
  if (!current) keptLists.clear();
});

/**
 * A list read as the server last answered it, when it still holds: the request carries the kept
 * answer's ETag, and a 304 (the data has not changed since) reuses the kept body instead of
 * sending the page again. Kept per user, request and content language, in this tab's memory only.
 */
async function revalidatedList<T>(path: string, options: RequestOptions): Promise<T> {
  const key = [session.peek()?.user?.id ?? '', contentLanguage.peek(), buildUrl(path, options.query)].join(' ');
  const kept = keptLists.get(key);
  const response = await send(path, { ...options, ifNoneMatch: kept?.etag });
  keptLists.delete(key);
  let text: string;
  if (response.status === 304 && kept) {
    text = kept.text;
    keptLists.set(key, kept);
  } else {
    text = await response.text();
    const etag = response.headers.get('ETag');
    if (etag) keptLists.set(key, { etag, text });
    for (const oldest of keptLists.keys()) {
      if (keptLists.size <= MAX_KEPT_LISTS) break;
      keptLists.delete(oldest);
    }
  }
  return JSON.parse(text) as T;
}

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) => request<T>(path, { query, signal }),
  list: <Row>(path: string, query: Query, signal?: AbortSignal) =>
    revalidatedList<ListResponse<Row>>(path, { query, signal, localized: true }),
  record: <T>(path: string, signal?: AbortSignal) => request<T>(path, { signal, localized: true }),
  post: <T>(path: string, body?: unknown) => request<T>(path, { method: 'POST', body }),
  put: <T>(path: string, body?: unknown) => request<T>(path, { method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown) => request<T>(path, { method: 'PATCH', body }),
  delete: <T>(path: string, body?: unknown) => request<T>(path, { method: 'DELETE', body }),
};
