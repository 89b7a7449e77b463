import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterTwoFrames, shot } from '../support/browser';
import { nameOf, openScreen, SCREENS, seedScreens } from '../support/screens';
import { useSuite } from '../support/suite';

/** Issue 25 from outside: every list fits a 1280 px window in every interface language. */
const suite = useSuite();

beforeAll(() => seedScreens(suite));

/** Whether a list's table (a chart's table of numbers is hidden until asked for) is wider than its scroller. */
function tablesScrolling(page: Page): Promise<boolean> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main table')]
      .filter((table) => table.getClientRects().length > 0 && !table.closest('.sr-only'))
      .some((table) => {
        const scroller = table.parentElement as HTMLElement;
        return scroller.scrollWidth > scroller.clientWidth + 1;
      }),
  );
}

describe('every list at 1280 px in every interface language', () => {
  let page: Page;

  beforeAll(async () => {
    page = await suite.signedIn(suite.admin, '/dashboard');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  afterAll(async () => {
    await page.evaluate(() => localStorage.removeItem('perkdesk-language'));
  });

  it.each(['en', 'az', 'ru', 'de', 'es', 'fr', 'ja', 'zh'])('%s: no list scrolls sideways, every column in view', async (code) => {
    await page.evaluate((language) => localStorage.setItem('perkdesk-language', language), code);
    const scrolling: string[] = [];
    for (const [index, path] of SCREENS.entries()) {
      // The language is read when the panel starts: the first screen is loaded from the address,
      // the others are reached inside the page, as a person moves between them.
      await openScreen(page, path, { settled: 'tables', inApp: index > 0 });
      // A table wider than its card squeezes once its size is observed (DataTable's ResizeObserver,
      // after a layout): what scrolls is what still scrolls once the next frames are drawn. A loaded
      // CI run once read the French dashboard as scrolling, whose tables are at most 391 px wide in
      // their 476 px cards: a moment of a layout, not what stays on the screen.
      let overflow = await tablesScrolling(page);
      if (overflow) {
        await afterTwoFrames(page);
        overflow = await tablesScrolling(page);
      }
      if (overflow) {
        scrolling.push(path);
        await shot(page, `fit-${code}-${nameOf(path)}`);
      }
    }
    // Known and left: since the Uses column (issue 41) the campaigns' eleven columns are 10-110 px
    // too wide in Azerbaijani, German, Spanish, French and Russian even with their headers on two
    // lines (the list scrolls, says so, and keeps its actions in view). Anything else that scrolls
    // fails here.
    const campaignsScroll = ['az', 'de', 'es', 'fr', 'ru'].includes(code);
    expect(scrolling, `lists that scroll sideways at 1280 px in ${code}`).toEqual(campaignsScroll ? ['/campaigns'] : []);
    // A walk of every screen: 13 s alone, up to 40 s beside the rest of a CI run on this host, and
    // a slower CI machine stretches that further; the 60 s every test has is for one screen's steps.
  }, 120_000);
});
