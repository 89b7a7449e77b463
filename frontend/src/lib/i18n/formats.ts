/**
 * Numbers and month names in an interface language. The browser's `Intl` formats them when it has
 * the language's data; a browser without it (Debian's Chromium has no Azerbaijani) still claims the
 * language in `resolvedOptions()` but formats with the root data ("M01", "3,000", "4.04"), so each
 * catalogue carries how its language writes them, and that is used whenever the browser's answer
 * is not the language's.
 */

type Twelve = readonly [string, string, string, string, string, string, string, string, string, string, string, string];

/** How a language writes numbers and months (CLDR's data for it, as the catalogue's translator checked it). */
export interface LocaleFormats {
  decimal: string;
  group: string;
  /** Digits a whole number needs before it is grouped at all: Spanish writes 3000 but 30.000. */
  minimumGroupingDigits: 1 | 2;
  /** January first, as a month stands on its own ("Yanvar"). */
  months: Twelve;
  /** The short forms a chart's axis takes ("Yan"). */
  monthsShort: Twelve;
  /** A month of a year: `{month}` (its name) or `{monthNumber}` (1–12), and `{year}`: "{month} {year}". */
  monthYear: string;
}

export interface NumberOptions {
  /** Exactly this many decimals (a rating: 2); by default up to three, without trailing zeros. */
  fractionDigits?: number;
}

const primary = (tag: string) => tag.toLowerCase().split('-')[0];

/**
 * Whether the browser formats numbers in `language` as the language writes them: it claims the
 * language and its separators are the language's (a browser without the data answers with the
 * root's "." and ",").
 */
function browserWritesNumbers(language: string, formats: LocaleFormats): boolean {
  const format = new Intl.NumberFormat(language);
  if (primary(format.resolvedOptions().locale) !== language) return false;
  const parts = format.formatToParts(12345.6);
  const part = (type: Intl.NumberFormatPartTypes) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  return part('decimal') === formats.decimal && part('group') === formats.group;
}

/** Whether the browser names the months of `language`: it claims the language and has names, not the root's "M01". */
function browserNamesMonths(language: string): boolean {
  const format = new Intl.DateTimeFormat(language, { month: 'long', timeZone: 'UTC' });
  return primary(format.resolvedOptions().locale) === language && !/^M\d+$/.test(format.format(Date.UTC(2000, 0, 1)));
}

function groupDigits(digits: string, formats: LocaleFormats): string {
  if (digits.length < 3 + formats.minimumGroupingDigits) return digits;
  const head = digits.length % 3 || 3;
  const groups = [digits.slice(0, head)];
  for (let at = head; at < digits.length; at += 3) groups.push(digits.slice(at, at + 3));
  return groups.join(formats.group);
}

/** `value` in `language`: the browser's own format when it has the language's, else the catalogue's. */
export function formatNumberIn(value: number, language: string, formats: LocaleFormats, { fractionDigits }: NumberOptions = {}): string {
  const digits = fractionDigits === undefined ? { maximumFractionDigits: 3 } : { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits };
  if (browserWritesNumbers(language, formats)) return new Intl.NumberFormat(language, digits).format(value);
  const fixed = Math.abs(value).toFixed(fractionDigits ?? 3);
  const [whole, fraction = ''] = fixed.split('.');
  const decimals = fractionDigits === undefined ? fraction.replace(/0+$/, '') : fraction;
  const sign = value < 0 && Number(fixed) !== 0 ? '-' : '';
  return `${sign}${groupDigits(whole, formats)}${decimals ? `${formats.decimal}${decimals}` : ''}`;
}

/** The twelve month names in `language`, January first: the browser's when it has them, else the catalogue's. */
export function monthNamesIn(language: string, formats: LocaleFormats, width: 'long' | 'short'): string[] {
  if (!browserNamesMonths(language)) return [...(width === 'long' ? formats.months : formats.monthsShort)];
  const format = new Intl.DateTimeFormat(language, { month: width, timeZone: 'UTC' });
  return Array.from({ length: 12 }, (_, index) => format.format(Date.UTC(2000, index, 1)));
}

/** A month of a year ("October 2026", "Oktyabr 2026"); `month` is 1–12. */
export function monthYearIn(year: number, month: number, language: string, formats: LocaleFormats): string {
  if (browserNamesMonths(language)) {
    return new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(year, month - 1, 1));
  }
  return formats.monthYear
    .replace('{monthNumber}', String(month))
    .replace('{month}', formats.months[month - 1])
    .replace('{year}', String(year));
}
