import type { Locator, Page } from 'playwright-core';
import type { Suite } from './suite';
import { dialog, until } from './ui';

/** The Users screen as a user sees it: toolbar, filter, table, pagination, row tools and dialogs. */
export class UsersScreen {
  readonly table: Locator;
  readonly rows: Locator;
  readonly toolbar: Locator;
  readonly pagination: Locator;
  readonly filterPanel: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByRole('table', { name: 'Users' });
    this.rows = this.table.locator('tbody tr');
    this.toolbar = page.getByRole('group', { name: 'Table actions' });
    this.pagination = page.getByRole('navigation', { name: 'Pagination' });
    this.filterPanel = page.getByRole('search', { name: 'Filter' });
  }

  async open(query = ''): Promise<void> {
    await this.page.goto(`/users${query}`);
    await this.loaded();
  }

  /** Waits until the table is not loading any more. */
  async loaded(): Promise<void> {
    await this.table.and(this.page.locator('[aria-busy="false"]')).waitFor();
  }

  button(name: string): Locator {
    return this.toolbar.getByRole('button', { name, exact: true });
  }

  /** The texts of one column, top to bottom (empty while the table shows a message instead of rows). */
  async column(header: string): Promise<string[]> {
    return this.table.evaluate((table, wanted) => {
      const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? '');
      const index = headers.indexOf(wanted);
      if (index < 0) throw new Error(`no column "${wanted}" in ${headers.join(', ')}`);
      return [...table.querySelectorAll('tbody tr')]
        .filter((tr) => tr.children.length === headers.length)
        .map((tr) => tr.children[index]?.textContent?.trim() ?? '');
    }, header);
  }

  emails(): Promise<string[]> {
    return this.column('Email');
  }

  /** Waits until the table shows exactly these e-mails, in this order. */
  async showsEmails(expected: string[]): Promise<void> {
    await until(() => this.emails()).toEqual(expected);
  }

  /** The message row ('No information found', the spinner, 'We've lost the connection'), if any. */
  message(): Promise<string> {
    return this.table.locator('tbody td[colspan]').innerText().then((text) => text.trim());
  }

  /** "1–10 of 25" beside the page size. */
  range(): Promise<string> {
    return this.pagination.getByText(/\d+–\d+ of \d+/).innerText();
  }

  pageSize(): Locator {
    return this.page.getByLabel('Rows per page');
  }

  pageButton(page: number): Locator {
    return this.pagination.getByRole('button', { name: `Page ${page}`, exact: true });
  }

  sortBy(column: string): Locator {
    return this.table.getByRole('button', { name: `Sort by ${column}` });
  }

  row(text: string): Locator {
    return this.rows.filter({ hasText: text });
  }

  /** A row's tool (View, Edit, Change Password, QR code, Delete). */
  tool(rowText: string, name: string): Locator {
    return this.row(rowText).getByRole('button', { name, exact: true });
  }

  rowCheckbox(rowText: string): Locator {
    return this.row(rowText).getByRole('checkbox');
  }

  filterField(label: string): Locator {
    return this.filterPanel.getByLabel(label, { exact: true });
  }

  dialog(title: string): Locator {
    return dialog(this.page, title);
  }

  /** A labelled field inside a dialog. */
  field(dialogTitle: string, label: string): Locator {
    return this.dialog(dialogTitle).getByLabel(label, { exact: true });
  }
}

/** The suite's Admin, signed in through the sign-in screen, on the loaded Users screen. */
export async function adminOnUsers(suite: Suite): Promise<UsersScreen> {
  const users = new UsersScreen(await suite.signedIn(suite.admin, '/users'));
  await users.loaded();
  return users;
}
