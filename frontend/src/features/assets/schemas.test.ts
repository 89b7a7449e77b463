import { describe, expect, it } from 'vitest';
import { validate } from '../../lib/validation';
import { multipartEntries } from '../../testing/api';
import {
  createAssetForm,
  createAssetSchema,
  editAssetForm,
  editAssetSchema,
  editValuesOf,
  emptyCreateAsset,
  type AssetRow,
  type CreateAssetValues,
  type EditAssetValues,
} from './schemas';

const logo = new File(['png'], 'logo.png', { type: 'image/png' });

describe('create asset form', () => {
  const valid: CreateAssetValues = {
    name: 'Qafqaz Bank',
    contactPerson: 'Kamran Nəsirov',
    phoneNumber: { code: '055', number: '887 22 52' },
    email: 'kamran@qafqazbank.az',
    barcodePrefix: 'QB1',
    file: logo,
  };
  const errorsOf = (change: Partial<CreateAssetValues>) => validate(createAssetSchema, { ...valid, ...change });

  it('starts empty with the default operator code and accepts a complete form', () => {
    expect(emptyCreateAsset()).toEqual({ name: '', contactPerson: '', phoneNumber: { code: '050', number: '' }, email: '', barcodePrefix: '', file: null });
    expect(errorsOf({})).toEqual({});
  });

  it.each([
    [{ name: ' ' }, 'name', 'Name is required'],
    [{ contactPerson: '' }, 'contactPerson', 'Contact person is required'],
    [{ phoneNumber: { code: '050', number: '' } }, 'phoneNumber', 'Phone number is required'],
    [{ phoneNumber: { code: '050', number: '887 2' } }, 'phoneNumber', 'Phone number must consist of 7 digits'],
    [{ email: '' }, 'email', 'Email is required'],
    [{ email: 'ab' }, 'email', 'Minimum 3 symbols'],
    [{ email: 'kamran@bank' }, 'email', 'Wrong email format. E.g. name@example.com'],
    [{ email: `${'k'.repeat(40)}@qafqazbank.az` }, 'email', 'Maximum 50 symbols'],
    [{ barcodePrefix: '' }, 'barcodePrefix', 'Barcode is required'],
    [{ barcodePrefix: 'QB12' }, 'barcodePrefix', 'Barcode must consist of max 3 letter or number'],
    [{ barcodePrefix: 'Q-1' }, 'barcodePrefix', 'Barcode must consist of max 3 letter or number'],
    [{ barcodePrefix: 'ƏB' }, 'barcodePrefix', 'Barcode must consist of max 3 letter or number'],
    [{ file: null }, 'file', 'File is required'],
  ] as const)('%j → %s: %s', (change, field, message) => {
    expect(errorsOf(change as Partial<CreateAssetValues>)[field]).toBe(message);
  });

  it.each(['A', 'q1', '007', ' AB '])('accepts the barcode prefix %j', (barcodePrefix) => {
    expect(errorsOf({ barcodePrefix }).barcodePrefix).toBeUndefined();
  });

  it('sends the multipart fields of POST asset: trimmed text, the 994 phone and the file', () => {
    expect(multipartEntries(createAssetForm({ ...valid, name: ' Qafqaz Bank ', barcodePrefix: ' QB1 ' }))).toEqual([
      ['name', 'Qafqaz Bank'],
      ['contactPerson', 'Kamran Nəsirov'],
      ['phoneNumber', '994558872252'],
      ['email', 'kamran@qafqazbank.az'],
      ['file', 'File:logo.png'],
      ['barcodePrefix', 'QB1'],
    ]);
  });
});

describe('edit asset form', () => {
  const asset: AssetRow = {
    id: 4,
    filePath: 'cdn/4.png',
    name: 'Naftalan Holdinq',
    contactPerson: 'Orxan Rzayev',
    contactPersonPhoneNumber: '994514412352',
    contactPersonEmail: 'orxan@naftalanholdinq.az',
    barcodePrefix: 'N4',
    isActive: true,
  };
  const valid = editValuesOf(asset);
  const errorsOf = (change: Partial<EditAssetValues>) => validate(editAssetSchema, { ...valid, ...change });

  it('fills from the record: phone parsed back, the stored image kept, no barcode', () => {
    expect(valid).toEqual({
      name: 'Naftalan Holdinq',
      contactPerson: 'Orxan Rzayev',
      phoneNumber: { code: '051', number: '441 23 52' },
      email: 'orxan@naftalanholdinq.az',
      file: 'cdn/4.png',
    });
    expect(errorsOf({})).toEqual({});
  });

  it.each([
    [{ name: '' }, 'name', 'Name is required'],
    [{ contactPerson: '' }, 'contactPerson', 'Contact person is required'],
    [{ phoneNumber: { code: '051', number: '' } }, 'phoneNumber', 'Phone number is required'],
    [{ email: 'orxan' }, 'email', 'Wrong email format. E.g. name@example.com'],
  ] as const)('%j → %s: %s', (change, field, message) => {
    expect(errorsOf(change as Partial<EditAssetValues>)[field]).toBe(message);
  });

  it('the image is optional on edit', () => expect(errorsOf({ file: null })).toEqual({}));

  it('sends PUT asset without a file (the server keeps the stored image) or with the new one', () => {
    expect(multipartEntries(editAssetForm(valid, asset))).toEqual([
      ['id', '4'],
      ['name', 'Naftalan Holdinq'],
      ['contactPerson', 'Orxan Rzayev'],
      ['phoneNumber', '994514412352'],
      ['email', 'orxan@naftalanholdinq.az'],
    ]);
    expect(multipartEntries(editAssetForm({ ...valid, file: logo }, asset)).at(-1)).toEqual(['file', 'File:logo.png']);
  });
});
