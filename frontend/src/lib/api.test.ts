import { describe, expect, it, vi } from 'vitest';
import { admin, json, mockApi, signedIn, tokens } from '../testing/api';
import { api, ApiError, buildUrl, forgetKeptLists, INVALID_CREDENTIALS, MAX_KEPT_LISTS } from './api';
import { setContentLanguage } from './i18n';
import { adoptSession, readStoredSession, SESSION_STORAGE_KEY, session, syncSessionAcrossTabs } from './session';

const expired = () => ({ expireDate: new Date(Date.now() - 1000).toISOString() });
const bearer = (headers: Headers) => headers.get('Authorization');

describe('api client headers', () => {
  it('sends the bearer token, and Accept-Language only on localised reads (lists and records)', async () => {
    signedIn();
    setContentLanguage(2);
    const mock = mockApi({
      'GET /api/user': () => json({ data: [], totalCount: 0 }),
      'GET /api/partner/5': () => json({ id: 5 }),
      'GET /api/auth/profile': () => json({ id: 1 }),
    });
    await api.list('user', { Skip: 0, Take: 10 });
    await api.record('partner/5');
    await api.get('auth/profile');
    const [list, record, plain] = mock.calls;
    expect(bearer(list.headers)).toBe('Bearer access-1');
    expect(list.headers.get('Accept-Language')).toBe('2');
    expect(list.url.search).toBe('?Skip=0&Take=10');
    expect(record.headers.get('Accept-Language')).toBe('2');
    expect(plain.headers.get('Accept-Language')).toBeNull();
    setContentLanguage(1);
  });

  it('sends a fresh x-requestid on every mutation and none on reads', async () => {
    signedIn();
    const mock = mockApi({ 'PUT /api/user': () => json({}), 'PATCH /api/user/active': () => json({}), 'GET /api/user/1': () => json({}) });
    await api.put('user', { id: 1 });
    await api.patch('user/active', { id: 1, isActive: false });
    await api.get('user/1');
    const [put, patch, get] = mock.calls;
    expect(put.headers.get('x-requestid')).toMatch(/^[0-9a-f-]{36}$/);
    expect(patch.headers.get('x-requestid')).toMatch(/^[0-9a-f-]{36}$/);
    expect(put.headers.get('x-requestid')).not.toBe(patch.headers.get('x-requestid'));
    expect(get.headers.get('x-requestid')).toBeNull();
    expect(put.body).toEqual({ id: 1 });
  });

  it('sends no Authorization header without a session', async () => {
    const mock = mockApi({ 'GET /api/auth/settings': () => json({ allowRegistration: false }) });
    await api.get('auth/settings');
    expect(bearer(mock.calls[0].headers)).toBeNull();
  });

  it('drops empty query values', () => {
    expect(buildUrl('user/filter', { Skip: 0, FirstName: '', LastName: undefined, RoleId: 2 })).toBe('/api/user/filter?Skip=0&RoleId=2');
  });

  it('throws ApiError with status, message and field errors', async () => {
    signedIn();
    mockApi({ 'POST /api/user/register': () => json({ message: 'First name is required', errors: { firstName: 'First name is required' } }, 400) });
    const error = await api.post('user/register', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, message: 'First name is required', errors: { firstName: 'First name is required' } });
  });
});

describe('session refresh', () => {
  it('refreshes first when the stored expiry has passed, then sends the new token', async () => {
    signedIn(expired());
    const mock = mockApi({ 'POST /api/auth/refreshToken': () => json(tokens(2)), 'GET /api/auth/profile': () => json({ id: 1 }) });
    await api.get('auth/profile');
    expect(mock.calls.map((call) => call.url.pathname)).toEqual(['/api/auth/refreshToken', '/api/auth/profile']);
    expect(mock.calls[0].body).toEqual({ refreshToken: 'refresh-1' });
    expect(bearer(mock.calls[1].headers)).toBe('Bearer access-2');
    expect(readStoredSession()).toMatchObject({ authToken: 'access-2', refreshToken: 'refresh-2', user: { id: admin.id } });
  });

  it('treats an expiry exactly now as expired', async () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z'), toFake: ['Date'] });
    signedIn({ expireDate: '2030-01-01T00:00:00Z' });
    const mock = mockApi({ 'POST /api/auth/refreshToken': () => json(tokens(2)), 'GET /api/x': () => json({}) });
    await api.get('x');
    expect(mock.callsTo('POST /api/auth/refreshToken')).toHaveLength(1);
  });

  it('on a 401 refreshes and retries once with the same x-requestid', async () => {
    signedIn();
    let attempts = 0;
    const mock = mockApi({
      'PUT /api/user': () => (++attempts === 1 ? json({ message: 'Token expired.' }, 401) : json({ ok: true })),
      'POST /api/auth/refreshToken': () => json(tokens(2)),
    });
    await expect(api.put('user', { id: 3 })).resolves.toEqual({ ok: true });
    const puts = mock.callsTo('PUT /api/user');
    expect(puts).toHaveLength(2);
    expect(bearer(puts[0].headers)).toBe('Bearer access-1');
    expect(bearer(puts[1].headers)).toBe('Bearer access-2');
    expect(puts[1].headers.get('x-requestid')).toBe(puts[0].headers.get('x-requestid'));
  });

  it('does not refresh on a 401 that says Invalid credentials.', async () => {
    signedIn();
    const mock = mockApi({ 'PUT /api/user/changePassword': () => json({ message: INVALID_CREDENTIALS }, 401) });
    await expect(api.put('user/changePassword', {})).rejects.toMatchObject({ status: 401, message: INVALID_CREDENTIALS });
    expect(mock.calls).toHaveLength(1);
    expect(session.value).not.toBeNull();
  });

  it('retries only once: a second 401 is returned to the caller', async () => {
    signedIn();
    const mock = mockApi({
      'GET /api/user/1': () => json({ message: 'Unauthorized' }, 401),
      'POST /api/auth/refreshToken': () => json(tokens(2)),
    });
    await expect(api.get('user/1')).rejects.toMatchObject({ status: 401 });
    expect(mock.callsTo('GET /api/user/1')).toHaveLength(2);
    expect(mock.callsTo('POST /api/auth/refreshToken')).toHaveLength(1);
  });

  it('logs out when the refresh is refused: the whole session is cleared', async () => {
    signedIn(expired());
    const mock = mockApi({ 'POST /api/auth/refreshToken': () => json({ message: 'Session revoked.' }, 401) });
    await expect(api.get('user/1')).rejects.toMatchObject({ status: 401 });
    expect(mock.callsTo('GET /api/user/1')).toHaveLength(0);
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(session.value).toBeNull();
  });

  it('single flight: parallel calls in one tab share one refresh', async () => {
    signedIn(expired());
    const mock = mockApi({
      'POST /api/auth/refreshToken': () => json(tokens(2)),
      'GET /api/a': () => json({}),
      'GET /api/b': () => json({}),
      'GET /api/c': () => json({}),
    });
    await Promise.all([api.get('a'), api.get('b'), api.get('c')]);
    expect(mock.callsTo('POST /api/auth/refreshToken')).toHaveLength(1);
    expect(mock.calls.filter((call) => call.url.pathname.length === 6).every((call) => bearer(call.headers) === 'Bearer access-2')).toBe(true);
  });

  it('holds the perkdesk-refresh Web Lock while refreshing', async () => {
    signedIn(expired());
    const request = vi.fn((_name: string, task: () => Promise<unknown>) => task());
    vi.stubGlobal('navigator', { ...navigator, locks: { request } });
    mockApi({ 'POST /api/auth/refreshToken': () => json(tokens(2)), 'GET /api/a': () => json({}) });
    await api.get('a');
    expect(request).toHaveBeenCalledTimes(1);
    expect(request.mock.calls[0][0]).toBe('perkdesk-refresh');
  });

  it('uses the tokens another tab rotated while this tab waited for the lock, without refreshing', async () => {
    signedIn(expired());
    // The other tab holds the lock, rotates the tokens and writes them, then releases the lock to us.
    const request = vi.fn(async (_name: string, task: () => Promise<unknown>) => {
      localStorage.setItem(
        SESSION_STORAGE_KEY,
        JSON.stringify({ ...readStoredSession(), authToken: 'access-9', refreshToken: 'refresh-9', expireDate: tokens(9).expiresAt }),
      );
      return task();
    });
    vi.stubGlobal('navigator', { ...navigator, locks: { request } });
    const mock = mockApi({ 'GET /api/a': () => json({}) });
    await api.get('a');
    expect(mock.callsTo('POST /api/auth/refreshToken')).toHaveLength(0);
    expect(bearer(mock.calls[0].headers)).toBe('Bearer access-9');
    expect(session.value?.refreshToken).toBe('refresh-9');
  });

  it('stops when another tab logged out while this tab waited', async () => {
    signedIn(expired());
    const request = vi.fn(async (_name: string, task: () => Promise<unknown>) => {
      localStorage.removeItem(SESSION_STORAGE_KEY);
      return task();
    });
    vi.stubGlobal('navigator', { ...navigator, locks: { request } });
    const mock = mockApi({});
    await expect(api.get('a')).rejects.toMatchObject({ status: 401 });
    expect(mock.calls).toHaveLength(0);
    expect(session.value).toBeNull();
  });

  it('follows other tabs through the storage event (a logout there logs this tab out)', () => {
    signedIn();
    const stop = syncSessionAcrossTabs();
    localStorage.removeItem(SESSION_STORAGE_KEY);
    window.dispatchEvent(new StorageEvent('storage', { key: SESSION_STORAGE_KEY, newValue: null }));
    expect(session.value).toBeNull();
    stop();
  });
});

describe('lists kept with their ETag', () => {
  const page = { data: [{ id: 1 }], totalCount: 1 };
  const tagged = (etag: string, body: unknown = page) => json(body, 200, { ETag: etag });

  it('asks with the kept ETag and reuses the kept page on a 304', async () => {
    forgetKeptLists();
    signedIn();
    const answers = [tagged('W/"a"'), new Response(null, { status: 304, headers: { ETag: 'W/"a"' } })];
    const mock = mockApi({ 'GET /api/user': () => answers.shift() ?? json({}, 500) });
    expect(await api.list('user', { Skip: 0, Take: 10 })).toEqual(page);
    expect(await api.list('user', { Skip: 0, Take: 10 })).toEqual(page);
    expect(mock.calls[0].headers.get('If-None-Match')).toBeNull();
    expect(mock.calls[1].headers.get('If-None-Match')).toBe('W/"a"');
  });

  it('keeps the newer page when the data changed, and asks with its tag next', async () => {
    forgetKeptLists();
    signedIn();
    const newer = { data: [{ id: 1 }, { id: 2 }], totalCount: 2 };
    const answers = [tagged('W/"a"'), tagged('W/"b"', newer), new Response(null, { status: 304 })];
    const mock = mockApi({ 'GET /api/user': () => answers.shift() ?? json({}, 500) });
    await api.list('user', { Skip: 0 });
    expect(await api.list('user', { Skip: 0 })).toEqual(newer);
    expect(await api.list('user', { Skip: 0 })).toEqual(newer);
    expect(mock.calls.map((call) => call.headers.get('If-None-Match'))).toEqual([null, 'W/"a"', 'W/"b"']);
  });

  it('never asks with a tag of another query, language or user, nor after signing out', async () => {
    forgetKeptLists();
    signedIn();
    const mock = mockApi({ 'GET /api/user': ({ url }) => tagged(`W/"${url.search}"`) });
    await api.list('user', { Skip: 0 });
    await api.list('user', { Skip: 10 });
    setContentLanguage(2);
    await api.list('user', { Skip: 0 });
    setContentLanguage(1);
    signedIn({}, { ...admin, id: 7 });
    await api.list('user', { Skip: 0 });
    adoptSession(null);
    signedIn();
    await api.list('user', { Skip: 0 });
    expect(mock.calls.every((call) => call.headers.get('If-None-Match') === null)).toBe(true);
  });

  it('keeps a bounded number of lists, the least recently used going first', async () => {
    forgetKeptLists();
    signedIn();
    const mock = mockApi({ 'GET /api/user': ({ url }) => tagged(`W/"${url.search}"`) });
    for (let skip = 0; skip <= MAX_KEPT_LISTS; skip += 1) await api.list('user', { Skip: skip });
    await api.list('user', { Skip: 0 });
    await api.list('user', { Skip: MAX_KEPT_LISTS });
    const asked = mock.calls.slice(-2).map((call) => call.headers.get('If-None-Match'));
    expect(asked).toEqual([null, `W/"?Skip=${MAX_KEPT_LISTS}"`]);
  });

  it('does not keep an answer without an ETag', async () => {
    forgetKeptLists();
    signedIn();
    const mock = mockApi({ 'GET /api/user': () => json(page) });
    await api.list('user', {});
    await api.list('user', {});
    expect(mock.calls[1].headers.get('If-None-Match')).toBeNull();
  });
});
