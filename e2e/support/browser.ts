import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { E2E_DIR } from './server';

/** Debian's Chromium, never a browser download. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
export const TABLET = { width: 1024, height: 768 };

/**
 * Playwright's `launch` gives every run a fresh temporary profile
 * (`--user-data-dir` in the system temp folder) and deletes it on close;
 * each test context is a further isolated, empty storage on top of it.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

export const SCREENSHOT_DIR = path.join(E2E_DIR, 'screenshots');

/**
 * Waits for the page's next two frames: a render the page had scheduled is drawn, and what that
 * drawing set off (a ResizeObserver's report, an effect's first requests) has happened too.
 */
export function afterTwoFrames(page: Page): Promise<void> {
  return page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

/** Saves what the user sees to `e2e/screenshots/<name>.png`. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Let pending renders (and the fonts) settle so the picture is the one a person would see.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true, animations: 'disabled' });
}

export interface ContextOptions {
  viewport?: { width: number; height: number };
  /** The browser's language (its preferred languages start with it); en-US unless given. */
  locale?: string;
  /** The system's colour scheme the page sees (`prefers-color-scheme`); light unless given. */
  colorScheme?: 'light' | 'dark';
}

/** A new isolated browser context (own storage, like another person's browser) with one page. */
export async function openPage(
  browser: Browser,
  baseURL: string,
  errors: string[],
  options: ContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL,
    viewport: options.viewport ?? DESKTOP,
    locale: options.locale ?? 'en-US',
    colorScheme: options.colorScheme ?? 'light',
    timezoneId: 'Asia/Baku',
    acceptDownloads: true,
  });
  context.setDefaultTimeout(10_000);
  context.setDefaultNavigationTimeout(15_000);
  const page = await context.newPage();
  watchPage(page, errors);
  context.on('page', (other) => watchPage(other, errors));
  return { context, page };
}

/** Uncaught exceptions in the app are failures, whatever the screen shows. */
function watchPage(page: Page, errors: string[]) {
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
}
