import { describe, expect, it } from 'vitest';
import { formatPhone, fromApiPhone, maskSubscriber, OPERATOR_CODES, toApiPhone } from './phone';

describe('phone', () => {
  it('offers the spec operator codes with 050 first (the default)', () => {
    expect(OPERATOR_CODES).toEqual(['050', '051', '055', '070', '077', '099', '010']);
    expect(fromApiPhone('').code).toBe('050');
  });

  it('masks typing as 123 45 67 and drops non-digits and extra digits', () => {
    expect(maskSubscriber('1')).toBe('1');
    expect(maskSubscriber('1234')).toBe('123 4');
    expect(maskSubscriber('12345')).toBe('123 45');
    expect(maskSubscriber('123-45-678')).toBe('123 45 67');
    expect(maskSubscriber('abc')).toBe('');
  });

  it.each([
    ['050', '123 45 67', '994501234567'],
    ['051', '765 43 21', '994517654321'],
    ['010', '000 00 01', '994100000001'],
    ['099', '5555555', '994995555555'],
  ] as const)('sends %s + %s as %s', (code, number, api) => {
    expect(toApiPhone({ code, number })).toBe(api);
  });

  it('sends an empty number as an empty string', () => {
    expect(toApiPhone({ code: '055', number: '' })).toBe('');
  });

  it.each([
    ['994501234567', { code: '050', number: '123 45 67' }],
    ['994777654321', { code: '077', number: '765 43 21' }],
    ['+994 10 000 00 01', { code: '010', number: '000 00 01' }],
  ])('parses %s back for an edit form', (api, value) => {
    expect(fromApiPhone(api)).toEqual(value);
  });

  it('round-trips every operator code', () => {
    for (const code of OPERATOR_CODES) expect(fromApiPhone(toApiPhone({ code, number: '123 45 67' }))).toEqual({ code, number: '123 45 67' });
  });

  it('falls back to the default for unknown or malformed values', () => {
    expect(fromApiPhone('994331234567')).toEqual({ code: '050', number: '' });
    expect(fromApiPhone('12345')).toEqual({ code: '050', number: '' });
    expect(fromApiPhone(null)).toEqual({ code: '050', number: '' });
  });

  it('formats for display', () => {
    expect(formatPhone('994501234567')).toBe('+994 50 123 45 67');
    expect(formatPhone('')).toBe('');
  });
});
