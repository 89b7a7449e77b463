import type { Locator, Page, Response } from 'playwright-core';
import { expect } from 'vitest';
import type { Account } from './accounts';

/** Polls until the value matches: the suite's way to wait for what the user will see, never a fixed sleep. */
export const until = <T>(read: () => T | Promise<T>, timeout = 10_000) => expect.poll(read, { timeout, interval: 50 });

/** The path and query of the page's URL (`/users?page=2`). */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

export const waitForPath = (page: Page, path: string | RegExp) =>
  page.waitForURL((url) => {
    const current = `${url.pathname}${url.search}`;
    return typeof path === 'string' ? current === path : path.test(current);
  });

/** The sign-in form's controls, by the labels a user reads. */
export function signInForm(page: Page) {
  return {
    userName: page.getByLabel('Email', { exact: true }),
    password: page.getByLabel('Password', { exact: true }),
    otp: page.getByLabel('One-time code'),
    submit: page.getByRole('button', { name: 'Sign In' }),
  };
}

/** The alert under the sign-in heading: its text and its tone (danger or info). */
export async function signInAlert(page: Page): Promise<{ text: string; tone: string | null }> {
  const alert = page.locator('form [data-tone]').first();
  await alert.waitFor();
  return { text: (await alert.innerText()).trim(), tone: await alert.getAttribute('data-tone') };
}

/**
 * Types the credentials into the sign-in screen and submits, as a person with
 * an authenticator app would. `otp` defaults to the account's next valid code.
 * If the per-address sign-in limit answers 429, waits as told and tries again
 * with a fresh code (the limit is the server's, not weakened for tests).
 */
export async function submitSignIn(page: Page, account: Account, options: { password?: string; otp?: string } = {}): Promise<Response> {
  const form = signInForm(page);
  for (let attempt = 1; ; attempt += 1) {
    await form.userName.fill(account.email);
    await form.password.fill(options.password ?? account.password);
    await form.otp.fill(options.otp ?? (await account.nextCode()));
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/auth/admin/token') && r.request().method() === 'POST'),
      form.submit.click(),
    ]);
    if (response.status() !== 429 || attempt >= 4) return response;
    await page.waitForTimeout((Number(await response.headerValue('retry-after')) || 6) * 1000);
  }
}

/** Opens `path` (default `/`), signs in on the screen it is sent to, and waits until the app has left /auth. */
export async function signIn(page: Page, account: Account, path = '/'): Promise<void> {
  await page.goto(path);
  await page.waitForURL(/\/auth\/login/);
  const response = await submitSignIn(page, account);
  expect(response.status(), `sign-in of ${account.email}`).toBe(200);
  await page.waitForURL((url) => !url.pathname.startsWith('/auth'));
}

/** A modal (dialog or drawer) by its title. */
export const dialog = (page: Page, title: string): Locator => page.getByRole('dialog', { name: title });

/**
 * Waits until the dialog titled `title` shows (its title is on screen; the
 * dialog's own element has no box of its own) and returns it.
 */
export async function openedDialog(page: Page, title: string): Promise<Locator> {
  const found = dialog(page, title);
  await found.getByRole('heading', { name: title, exact: true }).waitFor();
  return found;
}

/** The header's user menu, opened. */
export async function openUserMenu(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'User menu' }).click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  return menu;
}

/** The visible labels of the side menu, in order. */
export async function asideLabels(page: Page): Promise<string[]> {
  const menu = page.getByRole('navigation', { name: 'Main menu' }).first();
  await menu.getByRole('link').first().waitFor();
  return (await menu.getByRole('link').allInnerTexts()).map((text) => text.trim());
}

/** Does the page scroll sideways (content wider than the window)? */
export function overflowsHorizontally(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

/** The stored session (localStorage `persist:perkdesk-auth`), as the app wrote it. */
export async function storedSession(page: Page): Promise<{ authToken: string; refreshToken: string; expireDate: string; user: { email: string } | null } | null> {
  const raw = await page.evaluate(() => localStorage.getItem('persist:perkdesk-auth'));
  return raw ? JSON.parse(raw) : null;
}

/**
 * Scrolls `target` into view as a person would (wheel, swipe) and tells whether
 * it then lies wholly inside the window: a part of a tall dialog that no
 * scrolling can reach fails this.
 */
export async function reachable(page: Page, target: Locator): Promise<boolean> {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) return false;
  return box.y >= 0 && box.x >= 0 && box.y + box.height <= viewport.height && box.x + box.width <= viewport.width;
}
