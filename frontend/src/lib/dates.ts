import { addDays, format, isValid, parse, parseISO } from 'date-fns';

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

const RFC_3339_LOCAL = "yyyy-MM-dd'T'HH:mm:ssxxx";

function localDay(day: string, plusDays: number): string {
  const date = parse(day, 'yyyy-MM-dd', new Date());
  // Local midnight (or the day's first instant where a clock change skips midnight), with the browser's offset then.
  return isValid(date) ? format(addDays(date, plusDays), RFC_3339_LOCAL) : '';
}

/**
 * A browser calendar day (`<input type="date">`, yyyy-MM-dd) → the RFC 3339
 * instant it starts, with the browser's offset: 2026-03-01 in Baku is
 * 2026-03-01T00:00:00+04:00. The server reads an instant as given (a bare
 * date would be a UTC day), so a range sent this way is the browser's days.
 */
export function localDayStart(day: string): string {
  return localDay(day, 0);
}

/** The instant after a browser calendar day: the next day's local midnight, for an exclusive end bound (`< end`). */
export function localDayEnd(day: string): string {
  return localDay(day, 1);
}
