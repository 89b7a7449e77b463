import { describe, expect, it } from 'vitest';
import { validate } from '../../lib/validation';
import {
  adminPasswordSchema,
  createUserSchema,
  detailsPayload,
  editUserSchema,
  editValuesOf,
  emptyCreateUser,
  type AdminPasswordValues,
  type CreateUserValues,
  type EditUserValues,
} from './schemas';

const strong = 'Secret-123';

describe('create user form', () => {
  const valid: CreateUserValues = {
    ...emptyCreateUser(),
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    password: strong,
    confirmPassword: strong,
  };
  const errorsOf = (change: Partial<CreateUserValues>) => validate(createUserSchema, { ...valid, ...change });

  it('defaults the role to User and the operator code to 050', () => {
    expect(emptyCreateUser().roleId).toBe('1');
    expect(emptyCreateUser().phone.code).toBe('050');
  });
  it('accepts a complete form without a phone', () => expect(errorsOf({})).toEqual({}));
  it.each([
    [{ firstName: '' }, 'firstName', 'Firstname is required'],
    [{ lastName: ' ' }, 'lastName', 'Lastname is required'],
    [{ email: '' }, 'email', 'Email is required'],
    [{ email: 'ab' }, 'email', 'Minimum 3 symbols'],
    [{ email: 'ada@' }, 'email', 'Wrong email format. E.g. name@example.com'],
    // ASCII only, as the server (the engines' one rule for the same address).
    [{ email: 'əli@perk.az' }, 'email', 'Wrong email format. E.g. name@example.com'],
    [{ email: 'ali@müştəri.az' }, 'email', 'Wrong email format. E.g. name@example.com'],
    [{ email: `${'a'.repeat(45)}@example.com` }, 'email', 'Maximum 50 symbols'],
    [{ phone: { code: '050', number: '123 4' } }, 'phone', 'Phone number must consist of 7 digits'],
    [{ password: '' }, 'password', 'Password is required'],
    ...(['secret-123', 'SECRET-123', 'Secret-abc', 'Secret123', 'Se-12'] as const).map(
      (password) =>
        [
          { password, confirmPassword: password },
          'password',
          'Password must consist of an uppercase letter, a lowercase letter, a number and a character.',
        ] as const,
    ),
    [{ confirmPassword: '' }, 'confirmPassword', 'Confirm Password is required'],
    [
      { confirmPassword: 'secret-123' },
      'confirmPassword',
      'Password must consist of an uppercase letter, a lowercase letter, a number and a character.',
    ],
    [{ confirmPassword: 'Secret-124' }, 'confirmPassword', 'Both password need to be the same'],
  ] as const)('%j → %s: %s', (change, field, message) => {
    expect(errorsOf(change as Partial<CreateUserValues>)[field]).toBe(message);
  });
  it('accepts every special character of !@#$%^&*_-', () => {
    for (const special of '!@#$%^&*_-') {
      const password = `Secret1${special}`;
      expect(errorsOf({ password, confirmPassword: password })).toEqual({});
    }
  });
});

describe('edit user form', () => {
  const user = { id: 7, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '994551234567', roleId: 2, roleName: 'Call Center', isActive: true };
  const valid = editValuesOf(user);
  const errorsOf = (change: Partial<EditUserValues>) => validate(editUserSchema, { ...valid, ...change });

  it('fills the form from the record, phone parsed back', () => {
    expect(valid).toEqual({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: { code: '055', number: '123 45 67' }, roleId: '2' });
    expect(errorsOf({})).toEqual({});
  });
  it.each([
    [{ firstName: '' }, 'firstName', 'Firstname is required'],
    [{ lastName: '' }, 'lastName', 'Lastname is required'],
    [{ phone: { code: '050', number: '' } }, 'phone', 'Phone number is required'],
    [{ phone: { code: '050', number: '12' } }, 'phone', 'Phone number must consist of 7 digits'],
    [{ email: '' }, 'email', 'Email is required'],
    [{ email: 'x@y' }, 'email', 'Wrong email format. E.g. name@example.com'],
  ] as const)('%j → %s: %s', (change, field, message) => {
    expect(errorsOf(change as Partial<EditUserValues>)[field]).toBe(message);
  });
  it('sends trimmed text, the 994 phone and a numeric role', () => {
    expect(detailsPayload({ ...valid, firstName: ' Ada ', roleId: '0' })).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '994551234567',
      roleId: 0,
    });
  });
});

describe('admin change-password form', () => {
  const valid: AdminPasswordValues = { oldPassword: 'mypass123', newPassword: 'newpass12', newPasswordConfirm: 'newpass12' };
  const errorsOf = (change: Partial<AdminPasswordValues>) => validate(adminPasswordSchema, { ...valid, ...change });

  it('accepts a complete form', () => expect(errorsOf({})).toEqual({}));
  it.each([
    [{ oldPassword: '' }, 'oldPassword', 'Password is required'],
    [{ oldPassword: 'abcdefgh' }, 'oldPassword', 'Password must consist of a number.'],
    [{ newPassword: '' }, 'newPassword', 'Password is required'],
    [{ newPassword: 'abc12' }, 'newPassword', 'Password must consist of a number.'],
    [{ newPasswordConfirm: '' }, 'newPasswordConfirm', 'Confirm Password is required'],
    [{ newPasswordConfirm: 'abcdefgh' }, 'newPasswordConfirm', 'Password must consist of a number.'],
    [{ newPasswordConfirm: 'newpass13' }, 'newPasswordConfirm', 'Both password need to be the same'],
  ] as const)('%j → %s: %s', (change, field, message) => {
    expect(errorsOf(change)[field]).toBe(message);
  });
});
