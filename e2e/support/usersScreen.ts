import type { Page } from 'playwright-core';
import { ListScreen, USERS } from './listScreen';
import type { Suite } from './suite';
import { until } from './ui';

/** The Users screen: the shared list screen, read by its Email column. */
export class UsersScreen extends ListScreen {
  constructor(page: Page) {
    super(page, USERS);
  }

  emails(): Promise<string[]> {
    return this.column('Email');
  }

  /** Waits until the table shows exactly these e-mails, in this order. */
  async showsEmails(expected: string[]): Promise<void> {
    await until(() => this.emails()).toEqual(expected);
  }
}

/** The suite's Admin, signed in through the sign-in screen, on the loaded Users screen. */
export async function adminOnUsers(suite: Suite): Promise<UsersScreen> {
  const users = new UsersScreen(await suite.signedIn(suite.admin, '/users'));
  await users.loaded();
  return users;
}
