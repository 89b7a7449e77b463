import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { useSuite } from '../support/suite';

/**
 * From a click in the side menu to the screen's rows, on each screen's first visit in a fresh
 * browser context (its code not yet in the page), after the time a person takes to look at the
 * first screen (IDLE_MS, default 3 s): the panel fetches screens' code while the browser is idle.
 * Timed by the page's own clock: from just before the click to the first animation frame in which
 * the new screen's heading is there and its table (or chart) has finished loading.
 * RUNS fresh sign-ins (default 3), each visiting every menu item once.
 */
const suite = useSuite();
const RUNS = Number(process.env.RUNS ?? 3);
const IDLE_MS = Number(process.env.IDLE_MS ?? 3000);

/** ms from the click to the new screen's rows. */
async function visit(page: Page, name: string, path: string): Promise<number> {
  const link = page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name, exact: true });
  await link.evaluate((element) => {
    (window as unknown as { clickedAt: number }).clickedAt = performance.now();
    (element as HTMLElement).click();
  });
  const done = await page.waitForFunction(
    (expected) => {
      if (!location.pathname.startsWith(expected)) return false;
      const main = document.querySelector('main');
      const heading = main?.querySelector('h1');
      if (!main || !heading || main.querySelector('[aria-busy="true"]')) return false;
      if (!main.querySelector('table tbody tr') && !main.querySelector('figure canvas')) return false;
      return performance.now() - (window as unknown as { clickedAt: number }).clickedAt;
    },
    path,
    { polling: 'raf', timeout: 15_000 },
  );
  return (await done.jsonValue()) as number;
}

it(`first visit of each screen from the side menu (${RUNS} fresh sign-ins)`, async () => {
  const times = new Map<string, number[]>();
  for (let run = 0; run < RUNS; run += 1) {
    const page = await suite.signedIn(suite.admin, '/users');
    await page.locator('main table tbody tr').first().waitFor();
    await page.waitForTimeout(IDLE_MS);
    const items = await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => ({ name: (link.textContent ?? '').replace(/\d+.*$/, '').trim(), path: new URL((link as HTMLAnchorElement).href).pathname })));
    for (const item of items.filter((entry) => entry.path !== '/users')) {
      const ms = await visit(page, item.name, item.path);
      times.set(item.path, [...(times.get(item.path) ?? []), ms]);
    }
    await page.context().close();
  }
  const all = [...times.values()].flat().sort((a, b) => a - b);
  const at = (q: number) => Math.round(all[Math.min(all.length - 1, Math.floor(q * all.length))]);
  console.log(`menu first visits over ${RUNS} runs (${suite.server.bin}), idle ${IDLE_MS} ms after sign-in:`);
  console.table(Object.fromEntries([...times].map(([path, list]) => [path, { median: Math.round([...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]), max: Math.round(Math.max(...list)) }])));
  console.log(`all screens: median ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${at(1)} ms`);
  expect(all.length).toBeGreaterThan(0);
});
