import { describe, expect, it } from 'vitest';
import { validate } from '../../lib/validation';
import {
  forgotPasswordSchema,
  registrationSchema,
  resetPasswordSchema,
  signInSchema,
  type RegistrationValues,
  type SignInValues,
  recoverySignInSchema,
} from './schemas';

describe('sign-in form', () => {
  const valid: SignInValues = { userName: 'ada@example.com', password: 'secret', otp: '123456', recoveryCode: '' };
  const errorsOf = (change: Partial<SignInValues>) => validate(signInSchema, { ...valid, ...change });

  it('with a recovery code asks for the code instead of the six digits', () => {
    expect(validate(recoverySignInSchema, { ...valid, otp: '', recoveryCode: 'abcde-12345' })).toEqual({});
    expect(validate(recoverySignInSchema, { ...valid, otp: '' }).recoveryCode).toBe('Enter one of your recovery codes');
  });

  it('accepts a complete form', () => expect(errorsOf({})).toEqual({}));
  it.each([
    [{ userName: '' }, 'userName', 'Email is required'],
    [{ userName: '   ' }, 'userName', 'Email is required'],
    [{ password: '' }, 'password', 'Required field'],
    [{ otp: '' }, 'otp', 'Otp is required'],
    [{ otp: '12a456' }, 'otp', 'Otp must consist of digits'],
  ] as const)('%j → %s: %s', (change, field, message) => {
    expect(errorsOf(change)[field]).toBe(message);
  });
});

describe('registration form', () => {
  const valid: RegistrationValues = {
    fullname: 'Ada Lovelace',
    email: 'ada@example.com',
    username: 'ada',
    password: 'abc',
    changepassword: 'abc',
    acceptTerms: true,
  };
  const errorsOf = (change: Partial<RegistrationValues>) => validate(registrationSchema, { ...valid, ...change });

  it('accepts a complete form', () => expect(errorsOf({})).toEqual({}));
  it.each([
    [{ fullname: '' }, 'fullname', 'Minimum 3 symbols'],
    [{ fullname: 'Al' }, 'fullname', 'Minimum 3 symbols'],
    [{ fullname: 'x'.repeat(51) }, 'fullname', 'Maximum 50 symbols'],
    [{ username: 'ab' }, 'username', 'Minimum 3 symbols'],
    [{ username: 'x'.repeat(51) }, 'username', 'Maximum 50 symbols'],
    [{ password: 'ab', changepassword: 'ab' }, 'password', 'Minimum 3 symbols'],
    [{ password: 'x'.repeat(51), changepassword: 'x'.repeat(51) }, 'password', 'Maximum 50 symbols'],
    [{ email: 'ada@' }, 'email', 'Wrong email format'],
    [{ email: 'ab' }, 'email', 'Minimum 3 symbols'],
    [{ email: `${'a'.repeat(45)}@example.com` }, 'email', 'Maximum 50 symbols'],
    [{ changepassword: 'abd' }, 'changepassword', "Password and Confirm Password didn't match"],
    [{ changepassword: '' }, 'changepassword', "Password and Confirm Password didn't match"],
    [{ acceptTerms: false }, 'acceptTerms', 'You must accept the terms and conditions'],
  ] as const)('%j → %s: %s', (change, field, message) => {
    expect(errorsOf(change)[field]).toBe(message);
  });
});

describe('forgot-password form', () => {
  it.each([
    ['', 'Email is required'],
    ['ab', 'Minimum 3 symbols'],
    ['nope', 'Wrong email format. E.g. name@example.com'],
    [`${'a'.repeat(45)}@example.com`, 'Maximum 50 symbols'],
    ['ada@example.com', undefined],
  ])('%j → %s', (email, message) => {
    expect(validate(forgotPasswordSchema, { email }).email).toBe(message);
  });
});

describe('reset-password form (the own change-password rules for the new password)', () => {
  const errorsOf = (newPassword: string, newPasswordConfirm: string) => validate(resetPasswordSchema, { newPassword, newPasswordConfirm });

  it('accepts matching passwords with a letter, a digit and 8+ characters', () => {
    expect(errorsOf('abcdefg1', 'abcdefg1')).toEqual({});
  });
  it.each([
    ['', 'abcdefg1', 'newPassword', 'New password is required'],
    ['abcdefgh', 'abcdefg1', 'newPassword', 'Password must consist of a letter, a number.'],
    ['12345678', '12345678', 'newPassword', 'Password must consist of a letter, a number.'],
    ['abc1', 'abc1', 'newPassword', 'Password must consist of a letter, a number.'],
    ['abcdefg1', '', 'newPasswordConfirm', 'Confirm password is required'],
    ['abcdefg1', 'abcdefgh', 'newPasswordConfirm', 'Password must consist of a number.'],
    ['abcdefg1', 'abcdefg2', 'newPasswordConfirm', 'Both new password need to be the same'],
  ] as const)('%j / %j → %s: %s', (newPassword, confirm, field, message) => {
    expect(errorsOf(newPassword, confirm)[field]).toBe(message);
  });
});
