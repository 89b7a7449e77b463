import type { Signal } from '@preact/signals-react';
import type { ReactNode } from 'react';
import type { MessageKey } from '../../lib/i18n';
import type { Schema } from '../../lib/validation';
import type { DialogSize } from '../Dialog';
import type { ExportSpec } from '../ExportControl';
import type { FilterField } from '../FilterPanel';
import type { FieldDef } from '../form/types';
import type { IconName } from '../icons';
import type { ColumnPriority } from '../DataTable';
import type { SecretWords, ShownSecret } from '../SecretShownOnce';
import type { RoleId } from '../../lib/roles';
import type { UserProfile } from '../../lib/session';

export interface ResourceRow {
  id: number;
  isActive?: boolean;
}

export interface ColumnDef<Row> {
  /** The row property, also the API sort field unless `sortField` names another. */
  field: string;
  label: MessageKey;
  /**
   * How the value shows; image columns never sort, the status column toggles. An `email` is a text
   * column shown whole (wrapped, never cut) with room for a usual address on two lines.
   */
  kind?: 'text' | 'email' | 'image' | 'status' | 'phone' | 'date' | 'dateTime' | 'yesNo';
  sortable?: boolean;
  /** The API sort field when it is not `field` (a label column sorted by the flag behind it). */
  sortField?: string;
  render?: (row: Row) => ReactNode;
  /**
   * The cell's text when it is not the field as sent (a complaint's reason named in the interface
   * language); the column stays a text column, cut to its share with the whole text on hover.
   */
  value?: (row: Row) => string;
  /** 1 (default) always shows; 2 and 3 drop out of narrow tables (DataTable's ColumnPriority), staying in the drawer and the export. */
  priority?: ColumnPriority;
  /** The header may take two lines (DataTable's wrapHeader): for the very wide lists. */
  wrapHeader?: boolean;
  /** A text column's typical length in characters: its share of the table's free width (DataTable). */
  width?: number;
  /** A switch in the cell (a complaint's read flag): its state, call and words; the list reloads after it. */
  switch?: RowSwitch<Row>;
  /** A select in the cell (a request's New / In review / Done) for editors; others read the chosen label. */
  choice?: RowChoice<Row>;
}

export interface RowChoice<Row> {
  value: (row: Row) => string;
  options: { value: string; label: MessageKey }[];
  /** The select's accessible name before the row's label ("Request status: …"). */
  label: MessageKey;
  call: (row: Row, value: string) => Promise<unknown>;
  announce: (row: Row, value: string) => string;
}

export interface RowSwitch<Row> {
  isOn: (row: Row) => boolean;
  /** The switch's accessible name before the row's label ("Mark read: …"). */
  label: MessageKey;
  on: MessageKey;
  off: MessageKey;
  call: (row: Row, next: boolean) => Promise<unknown>;
  /** The toast after a change. */
  announce: (row: Row, next: boolean) => string;
  /** Also for the read-only Call Center role (the server lets it mark complaints read). */
  everyone?: boolean;
}

interface FormSpec<V extends object> {
  title: MessageKey;
  fields: readonly FieldDef<V>[];
  schema: Schema<V>;
  /** Server error keys that name a field differently (`cityId` → `cities`). */
  serverErrorAliases?: Partial<Record<string, keyof V & string>>;
  /** Long forms (repeating rows) take the wide dialog. */
  size?: DialogSize;
  /** 'sidePanel' opens the form in a panel at the right edge instead of a centred dialog (FormDialog). */
  surface?: 'dialog' | 'sidePanel';
  /** The record's name in the form's values, for the confirmation toast ("Partner Bravo created"). */
  nameOf?: (values: V) => string;
  /** The whole toast after a save when "Partner Bravo created" does not fit ("3 promo codes created"). */
  confirmation?: (values: V) => string;
  /** A refused submit's message shows under this field instead of in the form's alert (promo codes: the category). */
  failureField?: keyof V & string;
}

export interface CreateFormSpec<V extends object> extends FormSpec<V> {
  initialValues: () => V;
  /** Sends the form: a JSON body, or FormData built with lib/formData for multipart. */
  submit: (values: V) => Promise<unknown>;
  /** What the answer carries that is shown once after the create (a new user's recovery codes), as a dialog. */
  shownOnce?: (answer: unknown, values: V, onClose: () => void) => ReactNode;
}

export interface EditFormSpec<Row, V extends object> extends FormSpec<V> {
  /** `detail` is the record from `GET {basePath}/{id}`. */
  initialValues: (detail: Row) => V;
  submit: (values: V, detail: Row) => Promise<unknown>;
}

/** A tab of a drawer beside its details (a webhook's delivery log); `onChanged` reloads the record and the list with a toast. */
export interface DrawerTab<Row> {
  label: MessageKey;
  render: (row: Row, context: { onChanged: (confirmation: string) => void; reloadToken: number }) => ReactNode;
}

export interface DrawerSpec<Row> {
  title: MessageKey;
  /** 'wide': 640 px instead of 400 (a drawer with a log in a tab). */
  size?: 'wide';
  /** Tabs after Details (and before History). */
  tabs?: readonly DrawerTab<Row>[];
  /** Label/value pairs; an item with a `choice` is a select for editors there (a usage record's status), its value for others. */
  items?: { label: MessageKey; value: (row: Row) => ReactNode; choice?: RowChoice<Row> }[];
  /** A custom drawer body instead of the label/value list. */
  render?: (row: Row) => ReactNode;
  /** More below the label/value list, e.g. a partner's branches. */
  after?: (row: Row) => ReactNode;
}

export interface ToolContext<Row> {
  row: Row;
  onClose: () => void;
  /** Call after a change so the list reloads; `confirmation` is announced in a toast. */
  onDone: (confirmation?: string) => void;
}

/** An extra row action (QR code, change password, ...) that opens its own dialog. */
export interface RowTool<Row> {
  id: string;
  label: MessageKey;
  icon: IconName;
  /** Hidden from the read-only Call Center role: the tool changes data or reveals a secret (the QR code). */
  editorsOnly: boolean;
  isAvailable?: (row: Row) => boolean;
  render: (context: ToolContext<Row>) => ReactNode;
}

/** What a bulk action applies to: how many rows, and the row itself when it is one on this page. */
export interface BulkTarget<Row> {
  count: number;
  /** The row's label (`rowLabel`). */
  name?: string;
  row?: Row;
}

/**
 * A change applied to the selected rows, or to one row from its tools (the trash's Restore and
 * Delete for good), after a confirmation; the list reloads and `done` is announced.
 */
export interface BulkAction<Row> {
  id: string;
  label: MessageKey;
  icon: IconName;
  /** 'danger' for what cannot be undone. */
  tone: 'primary' | 'danger';
  /** The confirmation's question: the row's name when it is one row on the page, else the count. */
  question: (target: BulkTarget<Row>) => string;
  /** The line under the question (what follows from it). */
  detail: MessageKey;
  call: (ids: number[]) => Promise<unknown>;
  done: (target: BulkTarget<Row>) => string;
}

/** A toolbar button of the screen's own beside Export and Create (Employee list's Import), with its dialog. */
export interface ToolbarAction {
  id: string;
  /** Hidden from the read-only Call Center role. */
  editorsOnly: boolean;
  /** `onDone` reloads the list and announces `confirmation` in a toast. */
  render: (context: { onDone: (confirmation?: string) => void }) => ReactNode;
}

export interface ResourceFilter extends FilterField {
  /** The query parameter of `GET {basePath}/filter`, e.g. FirstName. */
  param: string;
}

/** Everything a list screen is: the ResourcePage renders it. */
export interface ResourceDeclaration<Row extends ResourceRow> {
  title: MessageKey;
  /** API path without /api, e.g. 'user'. */
  basePath: string;
  /**
   * Where one row's calls go (`GET {itemPath}/{id}`, `DELETE {itemPath}`, `PATCH {itemPath}/active`)
   * when the list has a path of its own: Expected Campaigns lists `campaign/notConfirmed` and
   * opens, edits and deletes through `campaign`. Defaults to `basePath`.
   */
  itemPath?: string;
  /** The unfiltered list's path when it is not `basePath` (`employee/forAdmin`). */
  listPath?: string;
  /** The filtered list's path when it is not `{basePath}/filter` (`employee/filter/admin`). */
  filterPath?: string;
  columns: readonly ColumnDef<Row>[];
  /** The header of the row-actions column; 'Tools' unless the screen names it otherwise. */
  toolsLabel?: MessageKey;
  /** A short human name of a row, used in accessible names ("Change status: Jane Doe"), confirmations and toasts. */
  rowLabel: (row: Row) => string;
  /** What one row and several rows are called: "26 users", "Delete 3 users?", "Partner Bravo created". */
  nouns: { one: MessageKey; many: MessageKey };
  /**
   * The signed-in user's own row, whose status switch and Delete could only
   * fail (nobody deactivates or deletes themselves): they are disabled, with the reason.
   */
  isOwnAccount?: (row: Row, user: UserProfile) => boolean;
  filters?: readonly ResourceFilter[];
  /** The filters open in a modal of this title ('Merchant filter') instead of the panel above the table. */
  filterDialog?: MessageKey;
  // Each form has its own value type; the page only hands the form's values to its submit.
  /* eslint-disable @typescript-eslint/no-explicit-any -- see above */
  create?: CreateFormSpec<any>;
  edit?: EditFormSpec<Row, any>;
  /* eslint-enable @typescript-eslint/no-explicit-any */
  view?: DrawerSpec<Row>;
  /** false: the drawer has no History tab (`GET {itemPath}/{id}/history`): a list that is not a recorded resource. */
  history?: boolean;
  /**
   * Row and bulk delete through `DELETE {basePath}` with `{ id: [...] }`: for editors (true), or only
   * for the roles listed (usage records: Admins); hidden from everyone else.
   */
  remove?: boolean | readonly RoleId[];
  /** false: no row selection or bulk delete, Delete is a row tool only (Usage History has no selection). */
  selectable?: boolean;
  /**
   * The status column toggles through `PATCH {basePath}/active`. A status column with a `render`
   * shows that badge beside the switch (and alone to readers).
   */
  toggle?: boolean;
  /**
   * Whether the status switch is on, when that is not the row's `isActive` (a webhook the server
   * switched off shows off, and switching it on sends `isActive: true`).
   */
  activeOf?: (row: Row) => boolean;
  /** After any change made on the screen (the list reloads too): e.g. a banner elsewhere reads its state again. */
  afterChange?: () => void;
  /** The status switch's call when it is not `PATCH {itemPath}/active` (categories: `PUT campaign/category/changeStatus`). */
  toggleCall?: (row: Row, isActive: boolean) => Promise<unknown>;
  tools?: readonly RowTool<Row>[];
  /** Changes to the selected rows (and each row's tools) besides delete; selection shows for editors. */
  bulkActions?: readonly BulkAction<Row>[];
  /** Toolbar buttons of the screen's own, before Export. */
  actions?: readonly ToolbarAction[];
  /**
   * A secret an answer holds this once (a new API key, a webhook's signing secret after its create
   * or a rotation): the create's submit or a tool sets `secret`, its dialog shows it until closed.
   */
  secretShownOnce?: { secret: Signal<ShownSecret | null>; words: SecretWords };
  exportSpec?: ExportSpec;
}
