import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { requestTokens } from '../support/api';
import { useSuite } from '../support/suite';

/**
 * How fast the first screen is ready in Chromium on a cold cache (a fresh
 * browser context per visit), against the binary under test:
 * - `/auth/login` interactive: the sign-in form's inputs and Sign In button are in the page;
 * - `/users` with rows: a signed-in visit shows the first page of the table.
 * Times are the page's own clock from navigation start. RUNS visits each (default 15).
 * Beside the total, each screen reports when the HTML's first byte arrived
 * (`responseStart`: mostly the fresh context's renderer start, which the page
 * cannot change) and the time from that byte to the ready frame (what the
 * page's own code, styles and API calls take).
 */
const suite = useSuite();
const RUNS = Number(process.env.RUNS ?? 15);

interface Visit {
  /** ms since navigation start when `ready` first held. */
  ready: number;
  /** ms since navigation start when the first byte of the HTML arrived. */
  firstByte: number;
}

/** Loads `path` in a fresh context and returns the page's times (ms since navigation start). */
async function timeTo(path: string, ready: () => boolean, session?: string): Promise<Visit> {
  const page: Page = await suite.newPage();
  if (session) {
    await page.context().addInitScript((value) => localStorage.setItem('persist:perkdesk-auth', value), session);
  }
  await page.goto(path, { waitUntil: 'commit' });
  // Polled on every animation frame: the time is that of the first frame in which the screen was there.
  await page.waitForFunction(ready, undefined, { polling: 'raf', timeout: 15_000 });
  const ms = await page.evaluate(() => performance.now());
  const firstByte = await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).responseStart);
  await page.context().close();
  return { ready: ms, firstByte };
}

function summary(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: Math.round(at(0.5)), p90: Math.round(at(0.9)), min: Math.round(sorted[0]), max: Math.round(sorted[sorted.length - 1]) };
}

it(`first screen: /auth/login interactive and /users with rows (${RUNS} cold visits each)`, async () => {
  const api = await suite.api();
  for (let n = 0; n < 12; n += 1) await api.createUser({ firstName: `Perf${n}`, lastName: 'User', email: `perf${n}@perkdesk.test`, phone: '994501234567' });
  const tokens = await requestTokens(suite.server.baseUrl, suite.admin);
  const profile = await (await fetch(`${suite.server.baseUrl}/api/auth/profile`, { headers: { Authorization: `Bearer ${tokens.token}` } })).json();
  const session = JSON.stringify({ user: profile, authToken: tokens.token, refreshToken: tokens.refreshToken, expireDate: tokens.expiresAt });

  // Functions, not strings: the page's CSP forbids evaluating strings.
  const loginReady = () => Boolean(document.querySelector('form input[type=password]') && document.querySelector('form button[type=submit]:not([disabled])'));
  const usersReady = () => document.querySelectorAll('table tbody tr td:not([colspan])').length > 0;
  // One visit of each first, so the server's and the OS's caches are as warm as in daily use.
  await timeTo('/auth/login', loginReady);
  await timeTo('/users', usersReady, session);
  const login: Visit[] = [];
  const users: Visit[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    login.push(await timeTo('/auth/login', loginReady));
    users.push(await timeTo('/users', usersReady, session));
  }
  const rows = (name: string, visits: Visit[]) => ({
    [name]: summary(visits.map((visit) => visit.ready)),
    '  HTML first byte': summary(visits.map((visit) => visit.firstByte)),
    '  first byte → ready': summary(visits.map((visit) => visit.ready - visit.firstByte)),
  });
  console.log(`first-screen timings in ms over ${RUNS} cold visits (${suite.server.bin}):`);
  console.table(rows('/auth/login interactive', login));
  console.table(rows('/users with rows', users));
  expect(login.length).toBe(RUNS);
});
