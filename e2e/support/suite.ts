import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Account } from './accounts';
import { Api } from './api';
import { launchChromium, openPage, type ContextOptions } from './browser';
import { PerkdeskServer, type AdminSpec } from './server';
import { signIn } from './ui';

export const MAIN_ADMIN: AdminSpec = {
  email: 'aysel.mammadova@perkdesk.test',
  firstName: 'Aysel',
  lastName: 'Mammadova',
  password: 'Admin-pass-2026',
};

export interface Suite {
  server: PerkdeskServer;
  browser: Browser;
  /** The Admin every file signs in with; its secret came from `create-admin`'s output. */
  admin: Account;
  /** Further accounts made with `create-admin` before the server started, by the names given. */
  accounts: Record<string, Account>;
  /** The API signed in as `admin` (one sign-in, made on first use). */
  api(): Promise<Api>;
  /** A fresh browser context and page (closed after the file). */
  newPage(options?: ContextOptions): Promise<Page>;
  /** A fresh page on which `account` (default: the Admin) signed in through the sign-in screen, sent there from `path`. */
  signedIn(account?: Account, path?: string): Promise<Page>;
  /** Every context opened so far. */
  contexts: BrowserContext[];
}

/**
 * One server on a temporary database (with `options.serveArgs` added to its flags) and one Chromium for the whole file:
 * started before the first test, stopped (by pid) after the last one, also
 * when a test failed. Uncaught exceptions in the page fail the test that
 * caused them.
 */
export function useSuite(extraAccounts: Record<string, AdminSpec> = {}, options: { serveArgs?: readonly string[] } = {}): Suite {
  const pageErrors: string[] = [];
  let api: Promise<Api> | undefined;
  const suite = {
    accounts: {},
    contexts: [],
    api: () => (api ??= Api.signIn(suite.server.baseUrl, suite.admin)),
    newPage: async (options?: ContextOptions) => {
      const { context, page } = await openPage(suite.browser, suite.server.baseUrl, pageErrors, options);
      suite.contexts.push(context);
      return page;
    },
    signedIn: async (account?: Account, path = '/') => {
      const page = await suite.newPage();
      await signIn(page, account ?? suite.admin, path);
      return page;
    },
  } as unknown as Suite;

  beforeAll(async () => {
    suite.server = new PerkdeskServer({ serveArgs: options.serveArgs });
    suite.admin = suite.server.createAdmin(MAIN_ADMIN);
    for (const [name, spec] of Object.entries(extraAccounts)) suite.accounts[name] = suite.server.createAdmin(spec);
    await suite.server.start();
    suite.browser = await launchChromium();
  });

  afterEach(() => {
    const errors = pageErrors.splice(0);
    expect(errors, 'uncaught exceptions in the page').toEqual([]);
  });

  afterAll(async () => {
    try {
      await suite.browser?.close();
    } finally {
      await suite.server?.stop();
    }
  });

  return suite;
}
