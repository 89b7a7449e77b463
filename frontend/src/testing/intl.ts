import { vi } from 'vitest';

const speaks = (locales: Intl.LocalesArgument, language: string) =>
  [locales].flat().some((tag) => typeof tag === 'string' && tag.toLowerCase().split('-')[0] === language);

/**
 * Makes this test's `Intl` a browser that claims `language` but has none of its data, as Debian's
 * Chromium does with Azerbaijani: `resolvedOptions()` names the language, yet numbers come out in
 * the root's format ("3,000", "4.04") and months as "M01" ("2026 M10" with the year).
 * `Number.prototype.toLocaleString` follows it, as a browser's does. `vi.unstubAllGlobals()` and
 * `vi.restoreAllMocks()` undo it.
 */
export function browserWithoutLocaleData(language: string): void {
  const { NumberFormat, DateTimeFormat } = Intl;

  class RootNumberFormat extends NumberFormat {
    private readonly claimed: boolean;
    constructor(locales?: Intl.LocalesArgument, options?: Intl.NumberFormatOptions) {
      super(speaks(locales, language) ? 'en' : locales, options);
      this.claimed = speaks(locales, language);
    }
    resolvedOptions() {
      const resolved = super.resolvedOptions();
      return this.claimed ? { ...resolved, locale: language } : resolved;
    }
  }

  class RootDateTimeFormat extends DateTimeFormat {
    private readonly claimed: boolean;
    private readonly wanted: Intl.DateTimeFormatOptions;
    constructor(locales?: Intl.LocalesArgument, options: Intl.DateTimeFormatOptions = {}) {
      super(speaks(locales, language) ? 'en' : locales, options);
      this.claimed = speaks(locales, language);
      this.wanted = options;
    }
    resolvedOptions() {
      const resolved = super.resolvedOptions();
      return this.claimed ? { ...resolved, locale: language } : resolved;
    }
    format(date?: Date | number) {
      if (!this.claimed || !this.wanted.month) return super.format(date);
      const day = new Date(date ?? Date.now());
      const month = `M${String(day.getUTCMonth() + 1).padStart(2, '0')}`;
      return this.wanted.year ? `${day.getUTCFullYear()} ${month}` : month;
    }
  }

  // Intl's members are not enumerable: the rest (PluralRules, …) stay reachable through the prototype.
  vi.stubGlobal('Intl', Object.assign(Object.create(Intl) as typeof Intl, { NumberFormat: RootNumberFormat, DateTimeFormat: RootDateTimeFormat }));
  vi.spyOn(Number.prototype, 'toLocaleString').mockImplementation(function (this: number, locales?: Intl.LocalesArgument, options?: Intl.NumberFormatOptions) {
    return new Intl.NumberFormat(locales, options).format(this);
  });
}
