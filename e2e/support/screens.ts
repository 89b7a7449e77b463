import type { Page } from 'playwright-core';
import { afterTwoFrames } from './browser';
import type { NewPartner } from './api';
import { createCampaign, createCategory } from './campaignsApi';
import { en } from '../../frontend/src/lib/i18n/en';
import { pngBytes } from './images';
import { SECTIONS } from './sections';
import type { Suite } from './suite';

/**
 * What the files that walk every screen (in each interface language, in each colour scheme, at
 * 1280 px) share: the screens, how to open one, what a screen says, and the records that give
 * every list something to show.
 */

/** Every signed-in screen: the side menu's sections, then My profile and the layout builder. */
export const SCREENS = [...SECTIONS.map((section) => section.path), '/my-page', '/builder'];
export const nameOf = (path: string) => path.replace(/^\//, '').replace(/\//g, '-');

/** A partner with one branch, named in Azerbaijani (the screen walks' and the axe walk's). */
export const DADLI_MARKET: NewPartner = {
  name: 'Dadlı Market',
  contactPersonFirstName: 'Elvin',
  contactPersonLastName: 'Quliyev',
  phoneNumber: '994501112233',
  email: 'market@dadli.test',
  cities: [{ cityId: 1, address: 'Nizami küç. 5', latitude: 40.41, longitude: 49.87 }],
};

/** A user, an asset with its HR account, a partner, a category and a campaign, all named in Azerbaijani. */
export async function seedScreens(suite: Suite): Promise<void> {
  const api = await suite.api();
  await api.createUser({ firstName: 'Leyla', lastName: 'Quliyeva', email: 'leyla.quliyeva@perkdesk.test', phone: '994501234567' });
  const image = pngBytes(48, [30, 64, 175], [14, 165, 233]);
  const asset = await api.createAsset(
    { name: 'Qafqaz Bank', contactPerson: 'Kamran Əliyev', phoneNumber: '994551234567', email: 'info@qafqaz.test', barcodePrefix: 'QB1' },
    image,
  );
  await api.createHrAccount({ assetId: asset.id, firstName: 'Nigar', lastName: 'Həsənova', email: 'nigar@qafqaz.test', phone: '994701234567', password: 'Welcome2026' });
  const partner = await api.createPartner(DADLI_MARKET);
  const category = await createCategory(api, { nameAz: 'Ərzaq', nameEn: 'Groceries', nameRu: 'Продукты' });
  await createCampaign(
    api,
    {
      partnerId: partner.id,
      campaignCategoryId: category.id,
      nameAz: 'Payız endirimi',
      nameEn: 'Autumn sale',
      nameRu: 'Осенняя распродажа',
      discountPercent: 15,
      assets: [asset.id],
    },
    image,
    image,
  );
}

/**
 * The English texts a language translates differently, as patterns: a text on the screen that
 * matches one is English left untranslated. Placeholders match any text; a template with almost no
 * words of its own ("{count} {noun}") says nothing and is left out.
 */
export function englishPatterns(translation: Record<string, unknown>): RegExp[] {
  const patterns: RegExp[] = [];
  for (const [key, english] of Object.entries(en)) {
    if (translation[key] === english) continue;
    const literal = english.replace(/\{\w+\}/g, '');
    if ((literal.match(/\p{L}/gu) ?? []).length < 2) continue;
    const source = english
      .split(/(\{\w+\})/)
      .map((part) => (/^\{\w+\}$/.test(part) ? '.+?' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    patterns.push(new RegExp(`^${source}$`));
  }
  return patterns;
}

/**
 * What the screen says: the text of every element that holds text of its own (a button's whole
 * label, not its pieces), the options of its selects, and the accessible names and hints written
 * in attributes.
 */
export function screenTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts: string[] = [];
    for (const element of document.body.querySelectorAll<HTMLElement>('*')) {
      if (['SCRIPT', 'STYLE', 'svg', 'path'].includes(element.tagName)) continue;
      const ownText = [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim());
      if (ownText && (element.tagName === 'OPTION' || element.checkVisibility())) texts.push((element.innerText || element.textContent || '').trim());
      for (const name of ['aria-label', 'title', 'placeholder', 'aria-description']) {
        const value = element.getAttribute(name);
        if (value && element.checkVisibility()) texts.push(value.trim());
      }
    }
    return texts.filter(Boolean);
  });
}

/**
 * Opens a screen and waits until it has drawn its data (or its empty state). `settled: 'tables'`
 * waits only for its tables (they are busy from their first drawing until their rows and count are
 * in) and for its fonts and images, not for half a second without requests: a walk that measures
 * tables needs no more, and the quiet half second was most of its time (a language's walk took
 * 40-56 s of the 60 s a test may take in a loaded CI run).
 *
 * `inApp` moves there as the side menu does, through the panel's router in the page already open
 * (signed in, on a screen of the panel), instead of loading the panel anew from the address: what a
 * person does between screens, and a quarter of a new page's work for Chromium (0.08 s of CPU a
 * screen against 0.3 s on this host: a new page runs the panel's code again, restores the session
 * and fetches every screen's code ahead once idle). A choice the panel reads only when it starts
 * (a language or scheme written to localStorage) needs the address. Settled on the network, a
 * move inside the page waits as a new page's `networkidle` does: no request open for 500 ms.
 */
export async function openScreen(
  page: Page,
  path: string,
  { settled = 'network', inApp = false }: { settled?: 'network' | 'tables'; inApp?: boolean } = {},
): Promise<void> {
  if (inApp) {
    const requests = settled === 'network' ? watchRequests(page) : undefined;
    try {
      await page.evaluate((target) => {
        history.pushState(null, '', target);
        dispatchEvent(new PopStateEvent('popstate'));
      }, path);
      // The router's render, then the new screen's first requests and busy tables.
      await afterTwoFrames(page);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await requests?.quiet();
    } finally {
      requests?.stop();
    }
  } else {
    await page.goto(path);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    if (settled === 'network') await page.waitForLoadState('networkidle');
  }
  if (settled === 'tables') await page.evaluate(() => document.fonts.ready.then(() => undefined));
  // Lists say how many rows they hold once the count is in; nothing is still loading.
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]') && [...document.images].every((image) => image.complete));
}

/** The page's requests as they start and end, to wait for the quiet a new page's `networkidle` waits for. */
function watchRequests(page: Page): { quiet: () => Promise<void>; stop: () => void } {
  let open = 0;
  let changed = Date.now();
  const started = () => {
    open += 1;
    changed = Date.now();
  };
  const ended = () => {
    open -= 1;
    changed = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    // Playwright's networkidle: no request open for 500 ms.
    quiet: async () => {
      const deadline = Date.now() + 15_000;
      while (open > 0 || Date.now() - changed < 500) {
        if (Date.now() > deadline) throw new Error(`the page's requests did not settle within 15 s (${open} open)`);
        await new Promise((done) => setTimeout(done, 50));
      }
    },
    stop: () => {
      page.off('request', started);
      page.off('requestfinished', ended);
      page.off('requestfailed', ended);
    },
  };
}
