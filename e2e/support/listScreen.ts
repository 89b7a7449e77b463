import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { DESKTOP, PHONE, shot } from './browser';
import { dialog, openedDialog, overflowsHorizontally, reachable, until } from './ui';

/** A list screen: its path and its title (the page heading and the table's caption). */
export interface ScreenSpec {
  path: string;
  title: string;
}

export const USERS: ScreenSpec = { path: '/users', title: 'Users' };
export const ASSETS: ScreenSpec = { path: '/assets', title: 'Asset list' };
export const HR_ACCOUNTS: ScreenSpec = { path: '/humanresource', title: 'Hr Account' };
export const PARTNERS: ScreenSpec = { path: '/partners', title: 'Partners' };

/**
 * Any list screen as a user sees it, by accessible names: toolbar, filter
 * panel, table, pagination, row tools and dialogs. Every list is the same
 * machinery, so one helper serves them all.
 */
export class ListScreen {
  readonly table: Locator;
  readonly rows: Locator;
  readonly toolbar: Locator;
  readonly pagination: Locator;
  readonly filterPanel: Locator;

  constructor(
    readonly page: Page,
    readonly spec: ScreenSpec,
  ) {
    this.table = page.getByRole('table', { name: spec.title, exact: true });
    this.rows = this.table.locator('tbody tr');
    this.toolbar = page.getByRole('group', { name: 'Table actions' });
    this.pagination = page.getByRole('navigation', { name: 'Pagination' });
    this.filterPanel = page.getByRole('search', { name: 'Filter' });
  }

  async open(query = ''): Promise<void> {
    await this.page.goto(`${this.spec.path}${query}`);
    await this.loaded();
  }

  /** Waits until the table is not loading any more. */
  async loaded(): Promise<void> {
    await this.table.and(this.page.locator('[aria-busy="false"]')).waitFor();
  }

  button(name: string): Locator {
    return this.toolbar.getByRole('button', { name, exact: true });
  }

  /** The column headers, left to right (the checkbox column's is empty). */
  headers(): Promise<string[]> {
    return this.table.locator('thead th').allInnerTexts().then((texts) => texts.map((text) => text.trim()));
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

  /** Waits until one column shows exactly these texts, in this order. */
  async shows(header: string, expected: string[]): Promise<void> {
    await until(() => this.column(header)).toEqual(expected);
  }

  /** The message row ('No information found', the spinner, 'We've lost the connection'), if any. */
  message(): Promise<string> {
    // The first line: what follows is an offered action (Retry, Clear filters).
    return this.table.locator('tbody td[colspan]').innerText().then((text) => text.trim().split('\n')[0].trim());
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
    return this.table.getByRole('columnheader', { name: column, exact: true }).getByRole('button');
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

  /** The row's status switch ('Change status: <name>'). */
  statusSwitch(rowText: string): Locator {
    return this.row(rowText).getByRole('switch');
  }

  /** The row's picture in the Image column. */
  rowImage(rowText: string): Locator {
    return this.row(rowText).locator('img');
  }

  /** Opens the filter panel with 'Show filter' unless it is open already. */
  async showFilter(): Promise<void> {
    if (await this.filterPanel.isVisible()) return;
    await this.filterSwitch().click();
    await this.filterPanel.waitFor();
  }

  /** Show filter / Hide filter, whose name also counts the applied filters ('Show filter 2 active'). */
  filterSwitch(): Locator {
    return this.toolbar.getByRole('button', { name: /^(Show|Hide) filter/ });
  }

  /** The total under the title ("26 users"). */
  total(): Promise<string> {
    return this.page.getByRole('region', { name: this.spec.title, exact: true }).getByRole('status').first().innerText();
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

  /**
   * Waits for the dialog titled `title` and returns it as a form, once nothing
   * in it is loading any more (an edit form's record, a lazily loaded picker).
   */
  async form(title: string): Promise<FormDialog> {
    const root = await openedDialog(this.page, title);
    await until(() => root.getByLabel('Loading…', { exact: true }).count()).toBe(0);
    return new FormDialog(this.page, root);
  }
}

/**
 * The list and its create form on a phone (390 px): the page never scrolls
 * sideways (a wide table scrolls inside its card), and the form's title and
 * Save can be reached. Screenshots `<name>-phone` and `<name>-create-phone`.
 */
export async function checkOnPhone(screen: ListScreen, createTitle: string, name: string): Promise<void> {
  const { page } = screen;
  await page.setViewportSize(PHONE);
  try {
    await screen.open();
    expect(await overflowsHorizontally(page), `${screen.spec.path} scrolls sideways at 390 px`).toBe(false);
    await shot(page, `${name}-phone`);
    await screen.button('Create').click();
    const form = await screen.form(createTitle);
    expect(await reachable(page, form.save()), 'Save can be scrolled to').toBe(true);
    expect(await reachable(page, form.root.getByRole('heading', { name: createTitle })), 'the title can be scrolled to').toBe(true);
    expect(await overflowsHorizontally(page), `the ${createTitle} form scrolls sideways at 390 px`).toBe(false);
    await shot(page, `${name}-create-phone`);
    await form.cancel();
  } finally {
    await page.setViewportSize(DESKTOP);
  }
}

/**
 * The list at 1280 px fits its card: the table is no wider than the card (nothing
 * to scroll sideways), every header sits wholly left of the pinned actions column
 * (the last one), and the first row's last tool is on screen. Screenshot `<name>`.
 */
export async function checkFitsDesktop(screen: ListScreen, name: string, { statusColumn = true }: { statusColumn?: boolean } = {}): Promise<void> {
  const { page } = screen;
  expect(page.viewportSize()).toEqual(DESKTOP);
  await screen.open();
  const layout = await screen.table.evaluate((table) => {
    const scroller = table.parentElement as HTMLElement;
    const headers = [...table.querySelectorAll('thead th')].map((th) => {
      const box = th.getBoundingClientRect();
      return { text: th.textContent?.trim() ?? '', left: box.left, right: box.right };
    });
    return { table: table.getBoundingClientRect().width, scrollWidth: scroller.scrollWidth, card: scroller.clientWidth, headers };
  });
  const where = `${screen.spec.path} at 1280 px`;
  expect(layout.table, `table ${layout.table}px wide in a ${layout.card}px card, ${where}`).toBeLessThanOrEqual(layout.card);
  expect(layout.scrollWidth, `the table scrolls sideways, ${where}`).toBeLessThanOrEqual(layout.card);
  const actions = layout.headers[layout.headers.length - 1];
  const status = layout.headers.find((header) => header.text === 'Status');
  // Read-only lists (Requests by Merchant) have no status column.
  if (statusColumn) expect(status, `a Status column, ${where}`).toBeDefined();
  for (const header of layout.headers.slice(0, -1)) {
    expect(header.right, `the ${header.text || 'checkbox'} header reaches under the pinned ${actions.text} column, ${where}`).toBeLessThanOrEqual(actions.left + 0.5);
  }
  const lastTool = screen.rows.first().getByRole('button').last();
  const box = await lastTool.boundingBox();
  expect(box !== null && box.x + box.width <= DESKTOP.width, `the first row's last tool is on screen, ${where}`).toBe(true);
  await shot(page, name);
}

/** What a loaded <img> shows: its address and natural size (0 while broken or loading). */
export function imageState(image: Locator): Promise<{ src: string; width: number; complete: boolean }> {
  return image.evaluate((img: HTMLImageElement) => ({ src: img.getAttribute('src') ?? '', width: img.naturalWidth, complete: img.complete }));
}

/** Waits until the image has loaded (a picture, not the broken-image box) and returns its address. */
export async function loadedImage(image: Locator): Promise<string> {
  await until(() => imageState(image).then((state) => state.complete && state.width > 0)).toBe(true);
  return (await imageState(image)).src;
}

/** A declared form in a dialog: fields by their labels, the phone, pickers, images and the messages. */
export class FormDialog {
  constructor(
    readonly page: Page,
    readonly root: Locator,
  ) {}

  field(label: string): Locator {
    return this.root.getByLabel(label, { exact: true });
  }

  save(): Locator {
    // 'Send' where the form sends rather than saves (a campaign's notification).
    return this.root.getByRole('button', { name: /^(Save|Send)$/ });
  }

  /** A validation message under a field (or the group of rows). */
  message(text: string): Locator {
    return this.root.getByText(text, { exact: true });
  }

  /** The server's answer inside the form. */
  alert(): Locator {
    return this.root.getByRole('alert');
  }

  /** The operator code and the 7 digits, typed as a person would (the mask adds the spaces). */
  async phone(code: string, digits: string, label = 'Phone number'): Promise<void> {
    await this.root.getByLabel('Operator code').selectOption(code);
    await this.field(label).fill('');
    await this.field(label).pressSequentially(digits);
  }

  /** Types into a search picker (asset, city) and chooses the option shown as `option`. */
  async pick(field: Locator, search: string, option: string): Promise<void> {
    await field.click();
    await field.fill(search);
    await this.page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
    await until(() => field.inputValue()).toBe(option);
  }

  /** The image picker's file input (labelled 'Image'). */
  imageInput(): Locator {
    return this.root.locator('input[type="file"]');
  }

  async chooseImage(file: string): Promise<void> {
    await this.imageInput().setInputFiles(file);
  }

  /** The picker's preview (a new file's, else the stored image). */
  preview(): Locator {
    return this.root.getByRole('img', { name: 'Image preview' });
  }

  /** Saves and waits until the dialog has closed. */
  async saveAndClose(): Promise<void> {
    await this.save().click();
    await this.root.waitFor({ state: 'detached' });
  }

  async cancel(): Promise<void> {
    await this.root.getByRole('button', { name: 'Cancel' }).click();
    await this.root.waitFor({ state: 'detached' });
  }
}
