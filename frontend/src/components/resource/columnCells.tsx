import type { ReactNode } from 'react';
import { formatDate, formatDateTime } from '../../lib/dates';
import { t } from '../../lib/i18n';
import { formatPhone } from '../../lib/phone';
import type { ChoosableColumn } from '../ColumnChooser';
import { SafeImage } from '../SafeImage';
import { StatusBadge } from '../StatusToggle';
import type { ColumnDef } from './types';

/** A declared column as the Columns button offers it: the table's key, header and priority for it. */
export function choosableColumn<Row>(column: ColumnDef<Row>): ChoosableColumn {
  return { key: column.field, header: t(column.label), priority: column.priority };
}

/** The value a column shows: its `value` of the row, else the field as sent. */
export function fieldOf<Row>(column: ColumnDef<Row>, row: Row): unknown {
  return column.value ? column.value(row) : (row as Record<string, unknown>)[column.field];
}

/** A declared column's cell as its kind shows it (a picture, a phone, a date, a badge), or its own `render`. */
export function cellValue<Row>(column: ColumnDef<Row>, row: Row): ReactNode {
  if (column.render) return column.render(row);
  const value = fieldOf(column, row);
  switch (column.kind) {
    case 'image':
      return <SafeImage path={value as string | null} alt="" className="size-8 max-w-none rounded-md object-cover" />;
    case 'phone':
      return formatPhone(value as string);
    case 'date':
      return formatDate(value as string);
    case 'dateTime':
      return formatDateTime(value as string);
    case 'yesNo':
      return value ? t('button.yes') : t('button.no');
    case 'status':
      return <StatusBadge active={Boolean(value)} />;
    default:
      return textOf(value);
  }
}

export function textOf(value: unknown): string {
  return value === null || value === undefined || value === '' ? t('table.noValue') : String(value);
}

/**
 * The narrowest width of a column of this kind, at least its widest content (DataTable keeps it
 * with no rows): a phone number, the status switch with its badge, a 32 px picture, a date.
 */
export const KIND_MIN_WIDTH: Partial<Record<NonNullable<ColumnDef<unknown>['kind']>, string>> = {
  // A usual address on two lines, broken before its @ ("leyla.quliyeva" over "@azersun.az"), without crowding out the names.
  email: '8rem',
  phone: '8.5rem',
  status: '6.5rem',
  image: '2rem',
  date: '5.5rem',
  dateTime: '8rem',
  yesNo: '2.5rem',
};

/** A plain text column (no render): DataTable cuts it to its share of the width, the full text on hover (an e-mail wraps). */
export function isText<Row>(column: ColumnDef<Row>): boolean {
  return !column.render && (column.kind === undefined || column.kind === 'text' || column.kind === 'email');
}
