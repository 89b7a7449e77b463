import { format, isValid, parse, parseISO } from 'date-fns';

const DATE_FORMAT = 'dd-MM-yyyy';
const DATE_TIME_FORMAT = 'dd-MM-yyyy HH:mm';

function toDate(value: string | Date | null | undefined): Date | null {
  if (!value) return null;
  const date = value instanceof Date ? value : parseISO(value);
  return isValid(date) ? date : null;
}

/** An API instant (ISO 8601, UTC) shown as dd-MM-yyyy in the browser's zone. */
export function formatDate(value: string | Date | null | undefined): string {
  const date = toDate(value);
  return date ? format(date, DATE_FORMAT) : '';
}

/** An API instant shown as dd-MM-yyyy HH:mm in the browser's zone. */
export function formatDateTime(value: string | Date | null | undefined): string {
  const date = toDate(value);
  return date ? format(date, DATE_TIME_FORMAT) : '';
}

/** `<input type="datetime-local">` value for an API instant, in the browser's zone. */
export function dateTimeInputValue(value: string | Date | null | undefined): string {
  const date = toDate(value);
  return date ? format(date, "yyyy-MM-dd'T'HH:mm") : '';
}

/** A local `datetime-local` value → the UTC ISO instant the API stores. */
export function localDateTimeToIso(value: string): string {
  if (!value) return '';
  const date = parse(value, "yyyy-MM-dd'T'HH:mm", new Date());
  return isValid(date) ? date.toISOString() : '';
}
