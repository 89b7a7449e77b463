import { describe, expect, it } from 'vitest';
import { validate } from '../../lib/validation';
import { ownPasswordSchema, type OwnPasswordValues } from './schemas';

describe('own change-password form', () => {
  const valid: OwnPasswordValues = { oldPassword: 'oldpass12', newPassword: 'newpass12', newPasswordConfirm: 'newpass12' };
  const errorsOf = (change: Partial<OwnPasswordValues>) => validate(ownPasswordSchema, { ...valid, ...change });

  it('accepts a complete form', () => expect(errorsOf({})).toEqual({}));
  it.each([
    [{ oldPassword: '' }, 'oldPassword', 'Old password is required'],
    [{ oldPassword: 'abcdefgh' }, 'oldPassword', 'Password must consist of a number.'],
    [{ oldPassword: 'abc1' }, 'oldPassword', 'Password must consist of a number.'],
    [{ newPassword: '' }, 'newPassword', 'New password is required'],
    [{ newPassword: '12345678', newPasswordConfirm: '12345678' }, 'newPassword', 'Password must consist of a letter, a number.'],
    [{ newPassword: 'abcdefgh' }, 'newPassword', 'Password must consist of a letter, a number.'],
    [{ newPassword: 'abcde12' }, 'newPassword', 'Password must consist of a letter, a number.'],
    [{ newPasswordConfirm: '' }, 'newPasswordConfirm', 'Confirm password is required'],
    [{ newPasswordConfirm: 'abcdefgh' }, 'newPasswordConfirm', 'Password must consist of a number.'],
    [{ newPasswordConfirm: 'newpass13' }, 'newPasswordConfirm', 'Both new password need to be the same'],
  ] as const)('%j → %s: %s', (change, field, message) => {
    expect(errorsOf(change)[field]).toBe(message);
  });
});
