import { act } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setUiLanguage, translateText } from '../../lib/i18n';
import { validate } from '../../lib/validation';
import {
  adminPasswordSchema,
  createHumanResourceSchema,
  detailsPayload,
  editHumanResourceSchema,
  editValuesOf,
  emptyCreateHumanResource,
  type AdminPasswordValues,
  type CreateHumanResourceValues,
  type EditHumanResourceValues,
  type HumanResourceRow,
} from './schemas';

const account: HumanResourceRow = {
  id: 12,
  assetId: 6,
  assetName: 'Bakı Mobil',
  firstName: 'Anar',
  lastName: 'İbrahimova',
  fullName: 'Anar İbrahimova',
  email: 'hr.anar@bakimobil.az',
  phone: '994515492101',
  userId: 36,
  isActive: true,
  isMfaActive: true,
  isEmployeeSeen: false,
  createdAt: '2026-01-23T09:30:00.000Z',
};

describe('create HR account form', () => {
  const valid: CreateHumanResourceValues = {
    ...emptyCreateHumanResource(),
    assetId: { id: 6, label: 'Bakı Mobil' },
    firstName: 'Anar',
    lastName: 'İbrahimova',
    email: 'hr.anar@bakimobil.az',
    phone: { code: '051', number: '549 21 01' },
    password: 'abcdefg1',
    confirmPassword: 'abcdefg1',
  };
  const errorsOf = (change: Partial<CreateHumanResourceValues>) => validate(createHumanResourceSchema, { ...valid, ...change });

  it('asks for an asset in the interface language', async () => {
    await act(() => setUiLanguage('az'));
    try {
      expect(translateText(errorsOf({ assetId: null }).assetId ?? '')).toBe('Təşkilat seçin');
    } finally {
      await act(() => setUiLanguage('en'));
    }
  });

  it('starts with both switches off and no asset, and accepts a complete form', () => {
    expect(emptyCreateHumanResource()).toMatchObject({ assetId: null, isMfaActive: false, isEmployeeSeen: false });
    expect(errorsOf({})).toEqual({});
  });

  it.each([
    [{ assetId: null }, 'assetId', 'Choose an asset'],
    [{ firstName: '' }, 'firstName', 'First name is required'],
    [{ lastName: ' ' }, 'lastName', 'Last name is required'],
    [{ email: '' }, 'email', 'Email is required'],
    [{ email: 'hr' }, 'email', 'Minimum 3 symbols'],
    [{ email: 'hr@bakimobil' }, 'email', 'Wrong email format. E.g. name@example.com'],
    [{ email: `${'h'.repeat(40)}@bakimobil.az` }, 'email', 'Maximum 50 symbols'],
    [{ phone: { code: '050', number: '' } }, 'phone', 'Phone is required'],
    [{ phone: { code: '050', number: '549 2' } }, 'phone', 'Phone number must consist of 7 digits'],
    [{ password: '', confirmPassword: '' }, 'password', 'Password is required'],
    [{ password: 'abcdefgh', confirmPassword: 'abcdefgh' }, 'password', 'Password must consist of a letter, a number.'],
    [{ password: '12345678', confirmPassword: '12345678' }, 'password', 'Password must consist of a letter, a number.'],
    [{ password: 'abc1', confirmPassword: 'abc1' }, 'password', 'Password must consist of a letter, a number.'],
    [{ confirmPassword: '' }, 'confirmPassword', 'Confirm Password is required'],
    [{ confirmPassword: 'abcdefgh' }, 'confirmPassword', 'Password must consist of a letter, a number.'],
    [{ confirmPassword: 'abcdefg2' }, 'confirmPassword', 'Both password need to be the same'],
  ] as const)('%j → %s: %s', (change, field, message) => {
    expect(errorsOf(change as Partial<CreateHumanResourceValues>)[field]).toBe(message);
  });

  it('sends the asset id, trimmed names, the 994 phone and both switches', () => {
    expect(detailsPayload({ ...valid, firstName: ' Anar ', isEmployeeSeen: true })).toEqual({
      assetId: 6,
      firstName: 'Anar',
      lastName: 'İbrahimova',
      email: 'hr.anar@bakimobil.az',
      phone: '994515492101',
      isMfaActive: false,
      isEmployeeSeen: true,
    });
  });
});

describe('edit HR account form', () => {
  const valid = editValuesOf(account);
  const errorsOf = (change: Partial<EditHumanResourceValues>) => validate(editHumanResourceSchema, { ...valid, ...change });

  it('fills from the detail: the asset as the picked option, the phone parsed back, the switches', () => {
    expect(valid).toEqual({
      assetId: { id: 6, label: 'Bakı Mobil' },
      firstName: 'Anar',
      lastName: 'İbrahimova',
      email: 'hr.anar@bakimobil.az',
      phone: { code: '051', number: '549 21 01' },
      isMfaActive: true,
      isEmployeeSeen: false,
    });
    expect(errorsOf({})).toEqual({});
  });

  it.each([
    [{ assetId: null }, 'assetId', 'Asset Id is required'],
    [{ firstName: '' }, 'firstName', 'First name is required'],
    [{ lastName: '' }, 'lastName', 'Last name is required'],
    [{ email: 'x@y' }, 'email', 'Wrong email format. E.g. name@example.com'],
    [{ phone: { code: '050', number: '' } }, 'phone', 'Phone is required'],
  ] as const)('%j → %s: %s', (change, field, message) => {
    expect(errorsOf(change as Partial<EditHumanResourceValues>)[field]).toBe(message);
  });
});

describe('admin change-password form for an HR account', () => {
  const valid: AdminPasswordValues = { password: 'newpass12', confirmPassword: 'newpass12' };
  const errorsOf = (change: Partial<AdminPasswordValues>) => validate(adminPasswordSchema, { ...valid, ...change });

  it('accepts a digit and 8+ characters, letters optional', () => {
    expect(errorsOf({})).toEqual({});
    expect(errorsOf({ password: '12345678', confirmPassword: '12345678' })).toEqual({});
  });
  it.each([
    [{ password: '' }, 'password', 'Password is required'],
    [{ password: 'abcdefgh', confirmPassword: 'abcdefgh' }, 'password', 'Password must consist of a number.'],
    [{ password: 'abc1234', confirmPassword: 'abc1234' }, 'password', 'Password must consist of a number.'],
    [{ confirmPassword: '' }, 'confirmPassword', 'Confirm Password is required'],
    [{ confirmPassword: 'newpass13' }, 'confirmPassword', 'Both password need to be the same'],
  ] as const)('%j → %s: %s', (change, field, message) => {
    expect(errorsOf(change)[field]).toBe(message);
  });
});
