import type { ReactNode } from 'react';
import type { MessageKey } from '../../lib/i18n';
import type { Schema } from '../../lib/validation';
import type { DialogSize } from '../Dialog';
import type { ExportSpec } from '../ExportControl';
import type { FilterField } from '../FilterPanel';
import type { FieldDef } from '../form/types';
import type { IconName } from '../icons';

export interface ResourceRow {
  id: number;
  isActive?: boolean;
}

export interface ColumnDef<Row> {
  /** The row property, also the API sort field unless `sortField` names another. */
  field: string;
  label: MessageKey;
  /** How the value shows; image columns never sort, the status column toggles. */
  kind?: 'text' | 'image' | 'status' | 'phone' | 'date' | 'dateTime' | 'yesNo';
  sortable?: boolean;
  /** The API sort field when it is not `field` (a label column sorted by the flag behind it). */
  sortField?: string;
  render?: (row: Row) => ReactNode;
}

interface FormSpec<V extends object> {
  title: MessageKey;
  fields: readonly FieldDef<V>[];
  schema: Schema<V>;
  /** Server error keys that name a field differently (`cityId` → `cities`). */
  serverErrorAliases?: Partial<Record<string, keyof V & string>>;
  /** Long forms (repeating rows) take the wide dialog. */
  size?: DialogSize;
}

export interface CreateFormSpec<V extends object> extends FormSpec<V> {
  initialValues: () => V;
  /** Sends the form: a JSON body, or FormData built with lib/formData for multipart. */
  submit: (values: V) => Promise<unknown>;
}

export interface EditFormSpec<Row, V extends object> extends FormSpec<V> {
  /** `detail` is the record from `GET {basePath}/{id}`. */
  initialValues: (detail: Row) => V;
  submit: (values: V, detail: Row) => Promise<unknown>;
}

export interface DrawerSpec<Row> {
  title: MessageKey;
  items?: { label: MessageKey; value: (row: Row) => ReactNode }[];
  /** A custom drawer body instead of the label/value list. */
  render?: (row: Row) => ReactNode;
  /** More below the label/value list, e.g. a partner's branches. */
  after?: (row: Row) => ReactNode;
}

export interface ToolContext<Row> {
  row: Row;
  onClose: () => void;
  /** Call after a change so the list reloads. */
  onDone: () => void;
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

export interface ResourceFilter extends FilterField {
  /** The query parameter of `GET {basePath}/filter`, e.g. FirstName. */
  param: string;
}

/** Everything a list screen is: the ResourcePage renders it. */
export interface ResourceDeclaration<Row extends ResourceRow> {
  title: MessageKey;
  /** API path without /api, e.g. 'user'. */
  basePath: string;
  columns: readonly ColumnDef<Row>[];
  /** The header of the row-actions column; 'Tools' unless the screen names it otherwise. */
  toolsLabel?: MessageKey;
  /** A short human name of a row, used in accessible names ("Change status: Jane Doe"). */
  rowLabel: (row: Row) => string;
  filters?: readonly ResourceFilter[];
  // Each form has its own value type; the page only hands the form's values to its submit.
  create?: CreateFormSpec<any>;
  edit?: EditFormSpec<Row, any>;
  view?: DrawerSpec<Row>;
  /** Row and bulk delete through `DELETE {basePath}` with `{ id: [...] }`. */
  remove?: boolean;
  /** The status column toggles through `PATCH {basePath}/active`. */
  toggle?: boolean;
  tools?: readonly RowTool<Row>[];
  exportSpec?: ExportSpec;
}
