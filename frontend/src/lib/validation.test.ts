import { describe, expect, it } from 'vitest';
import { emptyPhone } from './phone';
import { completePhone, emailRules, hasErrors, maxLength, minLength, required, sameAs, validate, type Schema } from './validation';

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
