import { afterEach, describe, expect, it } from 'vitest';
import {
  dateTimeInputValue,
  dayText,
  dayTimeText,
  formatDate,
  formatDateTime,
  localDateTimeToIso,
  localDayEnd,
  localDayStart,
  typedDay,
  typedDayTime,
} from './dates';

describe('dates', () => {
  it('reads a typed day as dd-MM-yyyy (dots and slashes too) or ISO, and refuses what is not a day', () => {
    for (const text of ['25-12-2026', ' 25.12.2026 ', '25/12/2026', '2026-12-25']) expect(typedDay(text)).toBe('2026-12-25');
    expect(typedDay('5-3-2026')).toBe('2026-03-05');
    for (const text of ['31-02-2026', '25-12-26', '25-12', 'abc', '', '2026-13-01']) expect(typedDay(text)).toBeNull();
    expect(dayText('2026-12-25')).toBe('25-12-2026');
    expect(dayText('')).toBe('');
  });

  it('reads a typed day and time, and shows one as dd-MM-yyyy HH:mm', () => {
    expect(typedDayTime('25-12-2026 18:30')).toBe('2026-12-25T18:30');
    expect(typedDayTime('2026-12-25T18:30')).toBe('2026-12-25T18:30');
    expect(typedDayTime('25-12-2026')).toBeNull();
    expect(typedDayTime('25-12-2026 25:00')).toBeNull();
    expect(dayTimeText('2026-12-25T18:30')).toBe('25-12-2026 18:30');
  });

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

describe('browser calendar days as RFC 3339 instants', () => {
  // Node applies a TZ assignment at once; each test picks the browser's zone.
  const original = process.env.TZ;
  afterEach(() => {
    process.env.TZ = original;
  });

  it('starts a day at local midnight with the offset, and ends it at the next local midnight (Baku, +04:00, no DST)', () => {
    process.env.TZ = 'Asia/Baku';
    expect(localDayStart('2026-03-01')).toBe('2026-03-01T00:00:00+04:00');
    expect(localDayEnd('2026-03-01')).toBe('2026-03-02T00:00:00+04:00');
    // Month and year ends roll over.
    expect(localDayEnd('2026-02-28')).toBe('2026-03-01T00:00:00+04:00');
    expect(localDayEnd('2026-12-31')).toBe('2027-01-01T00:00:00+04:00');
    // The instant is the Baku midnight: 20:00 UTC the evening before.
    expect(new Date(localDayStart('2026-03-01')).toISOString()).toBe('2026-02-28T20:00:00.000Z');
  });

  it('takes each bound\'s own offset across a clock change, and writes UTC as +00:00', () => {
    process.env.TZ = 'Europe/Berlin';
    expect(localDayStart('2026-03-29')).toBe('2026-03-29T00:00:00+01:00');
    expect(localDayEnd('2026-03-29')).toBe('2026-03-30T00:00:00+02:00');
    process.env.TZ = 'UTC';
    expect(localDayStart('2026-03-01')).toBe('2026-03-01T00:00:00+00:00');
    expect(localDayEnd('2026-03-31')).toBe('2026-04-01T00:00:00+00:00');
  });

  it('gives nothing for an empty or broken day', () => {
    expect(localDayStart('')).toBe('');
    expect(localDayEnd('2026-13-40')).toBe('');
  });
});
