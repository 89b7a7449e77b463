import { act } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserWithoutLocaleData } from '../../testing/intl';
import { azFormats } from './az';
import { enFormats } from './en';
import { esFormats } from './es';
import { formatNumberIn, monthNamesIn, monthYearIn } from './formats';
import { formatMonthYear, formatNumber, loadCatalogue, monthNames, setUiLanguage, t, uiLanguages } from '.';
import { zhFormats } from './zh';

afterEach(async () => {
  await act(() => setUiLanguage('en'));
  localStorage.clear();
});

describe('numbers', () => {
  it('are the browser’s where it has the language: grouped and with its decimal sign', () => {
    expect(formatNumberIn(3000, 'en', enFormats)).toBe('3,000');
    expect(formatNumberIn(4.04, 'az', azFormats, { fractionDigits: 2 })).toBe('4,04');
    expect(formatNumberIn(3000, 'es', esFormats)).toBe('3000');
    expect(formatNumberIn(30000, 'es', esFormats)).toBe('30.000');
  });

  it('come from the catalogue where the browser claims the language but writes the root’s "3,000" and "4.04"', () => {
    browserWithoutLocaleData('az');
    expect(new Intl.NumberFormat('az').format(3000)).toBe('3,000');
    expect(formatNumberIn(3000, 'az', azFormats)).toBe('3.000');
    expect(formatNumberIn(4.04, 'az', azFormats, { fractionDigits: 2 })).toBe('4,04');
    expect(formatNumberIn(4, 'az', azFormats, { fractionDigits: 2 })).toBe('4,00');
    expect(formatNumberIn(1234567.891, 'az', azFormats)).toBe('1.234.567,891');
    expect(formatNumberIn(0.5, 'az', azFormats)).toBe('0,5');
    expect(formatNumberIn(999, 'az', azFormats)).toBe('999');
    expect(formatNumberIn(-1500, 'az', azFormats)).toBe('-1.500');
    // Another language the browser has keeps its own format.
    expect(formatNumberIn(3000, 'en', enFormats)).toBe('3,000');
  });

  it('group from the fifth digit in Spanish when the catalogue writes them', () => {
    browserWithoutLocaleData('es');
    expect(formatNumberIn(3000, 'es', esFormats)).toBe('3000');
    expect(formatNumberIn(30000, 'es', esFormats)).toBe('30.000');
  });

  it('agree with the browser in every language it has, so only a missing one shows a difference', async () => {
    for (const { code } of uiLanguages) {
      const { formats } = await loadCatalogue(code);
      const browser = new Intl.NumberFormat(code, { maximumFractionDigits: 3 });
      browserWithoutLocaleData(code);
      expect(formatNumberIn(1234567.5, code, formats), code).toBe(browser.format(1234567.5));
      expect(formatNumberIn(12.25, code, formats, { fractionDigits: 2 }), code).toBe(browser.format(12.25));
      expect(formatNumberIn(3000, code, formats), code).toBe(browser.format(3000));
      vi.unstubAllGlobals();
      vi.restoreAllMocks();
    }
  });
});

describe('months', () => {
  it('are the browser’s where it has names', () => {
    expect(monthNamesIn('de', azFormats, 'long')[2]).toBe('März');
    expect(monthYearIn(2026, 10, 'en', enFormats)).toBe('October 2026');
  });

  it('come from the catalogue where the browser answers "M01" and "2026 M10"', () => {
    browserWithoutLocaleData('az');
    expect(new Intl.DateTimeFormat('az', { month: 'long', timeZone: 'UTC' }).format(Date.UTC(2000, 0, 1))).toBe('M01');
    expect(monthNamesIn('az', azFormats, 'long')).toEqual(['Yanvar', 'Fevral', 'Mart', 'Aprel', 'May', 'İyun', 'İyul', 'Avqust', 'Sentyabr', 'Oktyabr', 'Noyabr', 'Dekabr']);
    expect(monthNamesIn('az', azFormats, 'short')).toEqual(['Yan', 'Fev', 'Mar', 'Apr', 'May', 'İyn', 'İyl', 'Avq', 'Sen', 'Okt', 'Noy', 'Dek']);
    expect(monthYearIn(2026, 10, 'az', azFormats)).toBe('Oktyabr 2026');
  });

  it('a numbered month of a year where the language writes it so', () => {
    browserWithoutLocaleData('zh');
    expect(monthYearIn(2026, 10, 'zh', zhFormats)).toBe('2026年10月');
  });
});

describe('the interface language’s numbers and months', () => {
  it('follow the language chosen, counts in messages included', async () => {
    browserWithoutLocaleData('az');
    expect(formatNumber(3000)).toBe('3,000');
    expect(t('table.total', { count: 3000, noun: t('noun.employees', { count: 3000 }) })).toBe('3,000 employees');
    await act(() => setUiLanguage('az'));
    expect(formatNumber(3000)).toBe('3.000');
    expect(t('table.total', { count: 3000, noun: t('noun.employees', { count: 3000 }) })).toBe('3.000 əməkdaş');
    expect(t('reports.total', { count: 12500 })).toContain('12.500');
    expect(monthNames('short')[0]).toBe('Yan');
    expect(formatMonthYear(2026, 10)).toBe('Oktyabr 2026');
  });
});
