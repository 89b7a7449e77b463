import { describe, expect, it } from 'vitest';
import { dateTimeInputValue, formatDate, formatDateTime, localDateTimeToIso } from './dates';

describe('dates', () => {
  // Built from local parts so the test holds in any time zone.
  const local = new Date(2024, 2, 5, 9, 7);

  it('shows dd-MM-yyyy and dd-MM-yyyy HH:mm in the browser zone', () => {
    expect(formatDate(local.toISOString())).toBe('05-03-2024');
    expect(formatDateTime(local.toISOString())).toBe('05-03-2024 09:07');
  });

  it('shows nothing for missing or invalid values', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });

  it('converts between datetime-local values and UTC instants', () => {
    expect(dateTimeInputValue(local.toISOString())).toBe('2024-03-05T09:07');
    expect(localDateTimeToIso('2024-03-05T09:07')).toBe(local.toISOString());
    expect(localDateTimeToIso('')).toBe('');
  });
});
