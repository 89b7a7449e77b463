import { describe, expect, it } from 'vitest';
import { emptyPhone } from './phone';
import {
  completePhone,
  decimalBetween,
  eachRow,
  emailRules,
  hasErrors,
  maxLength,
  minLength,
  required,
  sameAs,
  validate,
  type Schema,
} from './validation';

describe('validate', () => {
  interface V {
    a: string;
    b: string;
  }
  const schema: Schema<V> = { a: [required('A is required'), minLength(3)], b: [sameAs('a', 'Must match')] };

  it('reports the first failing rule of each field, in order', () => {
    expect(validate(schema, { a: '', b: '' })).toEqual({ a: 'A is required' });
    expect(validate(schema, { a: 'ab', b: 'x' })).toEqual({ a: 'Minimum 3 symbols', b: 'Must match' });
    expect(hasErrors(validate(schema, { a: 'abc', b: 'abc' }))).toBe(false);
  });

  it('treats whitespace-only, false, empty lists and empty phones as blank', () => {
    const blank = required<Record<string, unknown>>('x');
    expect(blank('   ', {})).toBe('x');
    expect(blank(false, {})).toBe('x');
    expect(blank([], {})).toBe('x');
    expect(blank(emptyPhone(), {})).toBe('x');
    expect(blank({ code: '050', number: '123' }, {})).toBeUndefined();
  });

  it('length rules count trimmed characters and skip empty values', () => {
    expect(minLength(3)('', {})).toBeUndefined();
    expect(minLength(3)(' ab ', {})).toBe('Minimum 3 symbols');
    expect(maxLength(50)('x'.repeat(51), {})).toBe('Maximum 50 symbols');
    expect(maxLength(50)('x'.repeat(50), {})).toBeUndefined();
  });

  it('a phone must be empty or have all 7 digits', () => {
    const rule = completePhone('incomplete');
    expect(rule(emptyPhone(), {})).toBeUndefined();
    expect(rule({ code: '050', number: '123 45' }, {})).toBe('incomplete');
    expect(rule({ code: '050', number: '123 45 67' }, {})).toBeUndefined();
  });
});

describe('emailRules ("email as above")', () => {
  const check = (value: string) => validate({ email: emailRules() }, { email: value }).email;

  it.each([
    ['', 'Email is required'],
    ['ab', 'Minimum 3 symbols'],
    [`${'a'.repeat(45)}@example.com`, 'Maximum 50 symbols'],
    ['not-an-email', 'Wrong email format. E.g. name@example.com'],
    ['name@example', 'Wrong email format. E.g. name@example.com'],
    ['name@example.com', undefined],
  ])('%j → %s', (value, message) => {
    expect(check(value)).toBe(message);
  });
});

describe('decimalBetween', () => {
  const latitude = decimalBetween(-90, 90, 'out');
  it.each([
    ['', undefined],
    ['40.4093', undefined],
    ['-90', undefined],
    ['90', undefined],
    [' 12.5 ', undefined],
    ['90.0001', 'out'],
    ['-91', 'out'],
    // A decimal comma reads as a dot.
    ['40,4', undefined],
    ['40,4,1', 'out'],
    ['1e1', 'out'],
    ['0x10', 'out'],
    ['.5', 'out'],
    ['abc', 'out'],
  ])('%j → %s', (value, message) => {
    expect(latitude(value, {})).toBe(message);
  });
});

describe('eachRow', () => {
  const rows = eachRow<Record<string, unknown>>({ address: [required('Address missing')], latitude: [decimalBetween(-90, 90, 'Bad latitude')] });
  it('reports the first message of the first broken row, nothing for none or valid rows', () => {
    expect(rows([], {})).toBeUndefined();
    expect(rows([{ address: 'A', latitude: '1' }], {})).toBeUndefined();
    expect(rows([{ address: 'A', latitude: '100' }, { address: '', latitude: '' }], {})).toBe('Bad latitude');
    expect(rows([{ address: 'A', latitude: '1' }, { address: '', latitude: '100' }], {})).toBe('Address missing');
  });
});
