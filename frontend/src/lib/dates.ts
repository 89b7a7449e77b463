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

/** An API instant with its seconds (dd-MM-yyyy HH:mm:ss): attempts a second apart (a webhook's retries). */
export function formatDateTimeSeconds(value: string | Date | null | undefined): string {
  const date = toDate(value);
  return date ? format(date, `${DATE_TIME_FORMAT}:ss`) : '';
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

/** What staff may type in a day field: the panel's dd-MM-yyyy (or with dots or slashes), or an ISO day. */
const TYPED_DAY = ['dd-MM-yyyy', 'd-M-yyyy', 'dd.MM.yyyy', 'd.M.yyyy', 'dd/MM/yyyy', 'd/M/yyyy', 'yyyy-MM-dd'];
/** The same for a day and time. */
const TYPED_DAY_TIME = [
  'dd-MM-yyyy HH:mm',
  'd-M-yyyy H:mm',
  'dd.MM.yyyy HH:mm',
  'dd/MM/yyyy HH:mm',
  "yyyy-MM-dd'T'HH:mm",
  'yyyy-MM-dd HH:mm',
];

function typed(text: string, formats: readonly string[], out: string): string | null {
  const trimmed = text.trim();
  for (const shape of formats) {
    const date = parse(trimmed, shape, new Date());
    // A four-digit year: "1-2-26" is not read as the year 26.
    if (isValid(date) && date.getFullYear() >= 1000 && date.getFullYear() <= 9999) return format(date, out);
  }
  return null;
}

/** A typed day (`25-12-2026`, `25.12.2026`, `2026-12-25`) → the field's value `2026-12-25`; null when it is not a day. */
export function typedDay(text: string): string | null {
  return typed(text, TYPED_DAY, 'yyyy-MM-dd');
}

/** A typed day and time (`25-12-2026 18:30`) → the field's value `2026-12-25T18:30`; null when it is not one. */
export function typedDayTime(text: string): string | null {
  return typed(text, TYPED_DAY_TIME, "yyyy-MM-dd'T'HH:mm");
}

/** A day field's value (`2026-12-25`) as the panel shows days: `25-12-2026`. */
export function dayText(value: string): string {
  const date = parse(value, 'yyyy-MM-dd', new Date());
  return value && isValid(date) ? format(date, DATE_FORMAT) : value;
}

/** A day-and-time field's value (`2026-12-25T18:30`) as the panel shows it: `25-12-2026 18:30`. */
export function dayTimeText(value: string): string {
  const date = parse(value, "yyyy-MM-dd'T'HH:mm", new Date());
  return value && isValid(date) ? format(date, DATE_TIME_FORMAT) : value;
}
