import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { shot } from '../support/browser';
import { useSuite } from '../support/suite';
import { storedSession, until, waitForPath } from '../support/ui';
import { adminOnUsers, UsersScreen } from '../support/usersScreen';

const suite = useSuite();

interface Call {
  method: string;
  path: string;
  status: number;
  authorization: string | undefined;
  /** The refresh token a refresh call presented. */
  presented: string | undefined;
}

/** Records the API calls a page makes (method, path, status, bearer token), in order of their answers. */
function recordCalls(page: Page): Call[] {
  const calls: Call[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith('/api/')) return;
    calls.push({
      method: response.request().method(),
      path: url.pathname,
      status: response.status(),
      authorization: response.request().headers().authorization,
      presented: url.pathname === '/api/auth/refreshToken' ? response.request().postDataJSON()?.refreshToken : undefined,
    });
  });
  return calls;
}

/**
 * Changes the stored session the way another tab of the same browser would:
 * a second tab of the origin writes localStorage, and the app's tabs hear of
 * it through the storage event (a tab does not hear its own writes). The
 * second tab shows `/api/health`, not the app, so nothing of its own
 * overwrites the change.
 */
async function editSessionFromAnotherTab(context: BrowserContext, change: Record<string, string>): Promise<void> {
  const other = await context.newPage();
  await other.goto('/api/health');
  await other.evaluate((patch) => {
    const key = 'persist:perkdesk-auth';
    const session = JSON.parse(localStorage.getItem(key) ?? '{}');
    localStorage.setItem(key, JSON.stringify({ ...session, ...patch }));
  }, change);
  await other.close();
}

const aMinuteAgo = () => new Date(Date.now() - 60_000).toISOString();

describe('the session: refresh after expiry, retry after a 401, logout when the refresh is refused', () => {
  let page: Page;
  let users: UsersScreen;

  beforeAll(async () => {
    const api = await suite.api();
    for (const [firstName, lastName] of [['Rena', 'Aliyeva'], ['Samir', 'Guliyev'], ['Tarana', 'Ismayilova']]) {
      await api.createUser({ firstName, lastName, email: `${firstName}.${lastName}@perkdesk.test`.toLowerCase(), phone: '994503334455' });
    }
    users = await adminOnUsers(suite);
    page = users.page;
  });

  it('refreshes an expired stored session before loading, on reload: new tokens, no logout, the list loads', async () => {
    const before = await storedSession(page);
    await page.evaluate((expired) => {
      const key = 'persist:perkdesk-auth';
      localStorage.setItem(key, JSON.stringify({ ...JSON.parse(localStorage.getItem(key) ?? '{}'), expireDate: expired }));
    }, aMinuteAgo());
    const calls = recordCalls(page);

    await page.reload();
    await users.loaded();
    await until(() => users.emails()).toContain('rena.aliyeva@perkdesk.test');
    expect(new URL(page.url()).pathname).toBe('/users');

    // The refresh token rotates; the access token may be byte-identical when issued within the same second.
    const after = await storedSession(page);
    expect(after?.refreshToken).not.toBe(before?.refreshToken);
    expect(Date.parse(after?.expireDate ?? '')).toBeGreaterThan(Date.now());
    expect(after?.user?.email).toBe(suite.admin.email);

    // The refresh came first; nothing was sent with the stale token afterwards, and every call succeeded.
    const refreshAt = calls.findIndex((call) => call.path === '/api/auth/refreshToken');
    expect(refreshAt, 'a token refresh was made').toBeGreaterThanOrEqual(0);
    expect(calls[refreshAt].status).toBe(200);
    const authorised = calls.filter((call) => call.authorization);
    expect(authorised.length).toBeGreaterThan(0);
    for (const call of authorised) {
      expect(call.authorization, `${call.method} ${call.path}`).toBe(`Bearer ${after?.authToken}`);
      expect(call.status, `${call.method} ${call.path}`).toBe(200);
    }
  });

  it('refreshes first when the expiry passed while the page was open, then runs the list request', async () => {
    await users.open();
    const before = await storedSession(page);
    await editSessionFromAnotherTab(page.context(), { expireDate: aMinuteAgo() });
    const calls = recordCalls(page);

    await users.sortBy('Email').click();
    await waitForPath(page, '/users?sort=email&order=asc');
    await until(() => users.emails().then((emails) => emails[0])).toBe(suite.admin.email);

    const after = await storedSession(page);
    expect(after?.refreshToken).not.toBe(before?.refreshToken);
    expect(Date.parse(after?.expireDate ?? '')).toBeGreaterThan(Date.now());
    const paths = calls.map((call) => `${call.method} ${call.path} ${call.status}`);
    expect(paths[0]).toBe('POST /api/auth/refreshToken 200');
    expect(paths).toContain('GET /api/user 200');
    expect(calls.find((call) => call.path === '/api/user')?.authorization).toBe(`Bearer ${after?.authToken}`);
  });

  it('answers a 401 on a rejected token with one refresh and a retry of the same request', async () => {
    const before = await storedSession(page);
    // A token the server does not accept (signature broken), with an expiry still in the future.
    const broken = `${before?.authToken.slice(0, -4)}AAAA`;
    await editSessionFromAnotherTab(page.context(), { authToken: broken });
    const calls = recordCalls(page);

    await users.sortBy('Email').click();
    await waitForPath(page, '/users?sort=email&order=desc');
    await until(() => users.emails().then((emails) => emails.at(-1))).toBe(suite.admin.email);

    const lists = calls.filter((call) => call.path === '/api/user');
    expect(lists.map((call) => call.status)).toEqual([401, 200]);
    expect(calls.filter((call) => call.path === '/api/auth/refreshToken').map((call) => call.status)).toEqual([200]);
    const after = await storedSession(page);
    expect(after?.authToken).not.toBe(broken);
    expect(lists[1].authorization).toBe(`Bearer ${after?.authToken}`);
  });

  it('keeps two tabs signed in when both find the session expired at once (one refresh, no reuse)', async () => {
    const context = page.context();
    const before = await storedSession(page);
    const second = await context.newPage();
    await second.goto('/users');
    await new UsersScreen(second).loaded();
    await editSessionFromAnotherTab(context, { expireDate: aMinuteAgo() });
    const calls = [...[page, second].map(recordCalls)];

    await Promise.all([page.reload(), second.reload()]);
    for (const tab of [page, second]) {
      const screen = new UsersScreen(tab);
      await screen.loaded();
      await until(() => screen.emails()).toContain('samir.guliyev@perkdesk.test');
      expect(new URL(tab.url()).pathname).toBe('/users');
    }
    // One exchange: every refresh call presented the token both tabs started with. The second tab
    // normally adopts the first tab's new tokens without a call; on a loaded CI host the two calls
    // were once seen to cross, and then the server answers the repeat of the same token within its
    // grace window with the same pair: no call is refused and nothing is revoked.
    const refreshes = calls.flat().filter((call) => call.path === '/api/auth/refreshToken');
    expect(refreshes.length).toBeGreaterThanOrEqual(1);
    expect(refreshes.every((call) => call.status === 200)).toBe(true);
    expect(new Set(refreshes.map((call) => call.presented))).toEqual(new Set([before?.refreshToken]));

    // Both tabs keep working afterwards (a reused refresh token would have ended the session).
    await second.close();
    await users.open('?sort=firstName&order=asc');
    await until(() => users.emails().then((emails) => emails[0])).toBe(suite.admin.email);
    expect(await storedSession(page)).not.toBeNull();
  });

  it('shows the splash until the session is known, and never longer than about 3 s', async () => {
    // The profile check hangs: the splash shows, then the app goes on by itself.
    await page.route('**/api/auth/profile', () => undefined);
    try {
      const started = Date.now();
      await page.goto('/users', { waitUntil: 'commit' });
      await page.getByRole('status', { name: 'Loading perkdesk' }).waitFor();
      await shot(page, 'splash');
      await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor({ timeout: 6_000 });
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(2_500);
      expect(waited).toBeLessThan(5_000);
      expect(await page.getByRole('status', { name: 'Loading perkdesk' }).count()).toBe(0);
    } finally {
      await page.unroute('**/api/auth/profile');
    }
  });

  it('sends Accept-Language (the content language) on list reads and a fresh x-requestid on every mutation', async () => {
    await users.open();
    const requests: { method: string; path: string; headers: Record<string, string> }[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/user')) requests.push({ method: request.method(), path: url.pathname, headers: request.headers() });
    });
    await page.getByRole('combobox', { name: 'Content language' }).selectOption({ label: 'En' });
    await users.sortBy('First name').click();
    await until(() => requests.filter((r) => r.method === 'GET' && r.path === '/api/user').length).toBeGreaterThan(0);
    expect(requests.filter((r) => r.method === 'GET' && r.path === '/api/user').at(-1)?.headers['accept-language']).toBe('2');

    for (const name of ['Rena Aliyeva', 'Samir Guliyev']) {
      await users.row(name.split(' ')[0]).getByRole('switch', { name: `Change status: ${name}` }).click();
      await until(() => users.row(name.split(' ')[0]).innerText()).toContain('Inactive');
    }
    const ids = requests.filter((r) => r.method === 'PATCH').map((r) => r.headers['x-requestid']);
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[0]).not.toBe(ids[1]);
    await page.getByRole('combobox', { name: 'Content language' }).selectOption({ label: 'Az' });
  });

  it('logs out to /auth/login when the refresh is refused', async () => {
    await users.open();
    await editSessionFromAnotherTab(page.context(), { expireDate: aMinuteAgo(), refreshToken: 'not-a-refresh-token' });
    await users.sortBy('Last name').click();
    await page.waitForURL((url) => url.pathname === '/auth/login');
    expect(new URL(page.url()).searchParams.get('returnTo')).toMatch(/^\/users/);
    expect(await storedSession(page)).toBeNull();
    await shot(page, 'session-refresh-refused');
  });
});
