import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Account } from '../support/accounts';
import { Api } from '../support/api';
import { launchChromium, openPage } from '../support/browser';
import { timeDashboardFromMenu } from '../support/charts';
import { seedReporting } from '../support/reportingSeed';
import { PerkdeskServer } from '../support/server';
import { MAIN_ADMIN } from '../support/suite';
import { signIn, waitForPath } from '../support/ui';

/**
 * How long the dashboard takes to be drawn after choosing it in the side menu (issue 14), by the
 * page's own clock, measured as e2e/tests/dashboard.test.ts measures it: from the click to the
 * animation frame in which both charts have paint on their canvas and the four tables hold rows.
 *
 * - `PERKDESK_DB=path` serves that existing database (e.g. bench/dashboard.sh's
 *   bench/.tmp/bench-dashboard-10000000-200000-2000.db) and signs in as a new Admin made with
 *   `create-admin` (a users row per run is all it adds); without it, a temporary database with the
 *   demo-like seed of the e2e tests.
 * - `CONTEXTS` fresh browser contexts (default 5), each with an empty HTTP cache, signed in on the
 *   sign-in screen or with the first context's session, then `VISITS` visits each (default 5):
 *   Users, then Dashboard from the menu. The first visit of a context fetches the screen's code
 *   (the dashboard and chart.js chunks); the later ones find it loaded.
 */
const CONTEXTS = Number(process.env.CONTEXTS ?? 5);
const VISITS = Number(process.env.VISITS ?? 5);
const EXISTING_DB = process.env.PERKDESK_DB;

let server: PerkdeskServer;
let browser: Browser;
let admin: Account;
const pageErrors: string[] = [];

beforeAll(async () => {
  server = new PerkdeskServer({ dbPath: EXISTING_DB });
  // On an existing database an earlier run's Admin is there already: each run makes its own.
  admin = server.createAdmin(EXISTING_DB ? { ...MAIN_ADMIN, email: `perf${Date.now()}@perkdesk.test` } : MAIN_ADMIN);
  await server.start();
  if (!EXISTING_DB) await seedReporting(await Api.signIn(server.baseUrl, admin), server.dbPath);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  try {
    await browser?.close();
  } finally {
    await server?.stop();
  }
});

function summary(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { n: times.length, median: Math.round(at(0.5)), p90: Math.round(at(0.9)), min: Math.round(sorted[0]), max: Math.round(sorted[sorted.length - 1]) };
}

it(`dashboard drawn after the menu click (${CONTEXTS} fresh contexts × ${VISITS} visits)`, async () => {
  const first: number[] = [];
  const later: number[] = [];
  let session: string | null = null;
  for (let run = 0; run < CONTEXTS; run += 1) {
    const { context, page } = await openPage(browser, server.baseUrl, pageErrors);
    if (session === null) {
      // One sign-in through the screen; a TOTP step is accepted once, so the other contexts reuse its session.
      await signIn(page, admin, '/users');
      session = await page.evaluate(() => localStorage.getItem('persist:perkdesk-auth'));
      expect(session, 'the session the app stored').toBeTruthy();
    } else {
      await context.addInitScript((value) => localStorage.setItem('persist:perkdesk-auth', value), session);
      await page.goto('/users');
    }
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    const visits: number[] = [];
    for (let visit = 0; visit < VISITS; visit += 1) {
      if (visit > 0) {
        await menu.getByRole('link', { name: 'Users', exact: true }).click();
        await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      }
      visits.push(await timeDashboardFromMenu(page));
      await waitForPath(page, '/dashboard');
    }
    console.info(`context ${run + 1}: dashboard drawn ${visits.map(Math.round).join(', ')} ms after the menu click (first visit first)`);
    first.push(visits[0]);
    later.push(...visits.slice(1));
    await context.close();
  }
  console.log(`dashboard timings in ms (${server.bin}, ${EXISTING_DB ?? 'demo-like seed'}):`);
  console.table({ 'first visit of a context': summary(first), 'later visits': summary(later) });
  expect(pageErrors, 'uncaught exceptions in the page').toEqual([]);
  expect(first.length).toBe(CONTEXTS);
});
