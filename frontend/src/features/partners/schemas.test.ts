import { describe, expect, it } from 'vitest';
import { validate } from '../../lib/validation';
import { multipartEntries } from '../../testing/api';
import {
  createPartnerForm,
  editPartnerForm,
  editValuesOf,
  emptyPartner,
  newCityRow,
  PARTNER_MESSAGES,
  partnerSchema,
  type CityRowValues,
  type PartnerRow,
  type PartnerValues,
} from './schemas';

const baku: CityRowValues = { id: 0, cityId: { id: 1, label: 'Bakı' }, address: 'Nizami 1', latitude: '40.4093', longitude: '49.8671' };

const valid: PartnerValues = {
  ...emptyPartner(),
  name: 'Bulvar Kafe',
  contactPersonFirstName: 'Emin',
  contactPersonLastName: 'Sadıqov',
  phoneNumber: { code: '070', number: '763 11 41' },
  email: 'info@bulvarkafe.az',
  cities: [baku],
};
const errorsOf = (change: Partial<PartnerValues>) => validate(partnerSchema, { ...valid, ...change });
const withRow = (change: Partial<CityRowValues>) => errorsOf({ cities: [baku, { ...baku, ...change }] }).cities;

describe('partner form rules (create and edit)', () => {
  it('starts with promo codes off and one empty city row, and accepts a complete form', () => {
    expect(emptyPartner()).toMatchObject({ isPromoCodeUsing: false, promoCodeVersion: '', file: null, cities: [newCityRow()] });
    expect(newCityRow()).toEqual({ id: 0, cityId: null, address: '', latitude: '', longitude: '' });
    expect(errorsOf({})).toEqual({});
  });

  it.each([
    [{ name: '' }, 'name', 'Name is required'],
    [{ contactPersonFirstName: ' ' }, 'contactPersonFirstName', 'Contact person firstname is required'],
    [{ contactPersonLastName: '' }, 'contactPersonLastName', 'Contact person lastname is required'],
    [{ phoneNumber: { code: '050', number: '' } }, 'phoneNumber', 'Phone number is required'],
    [{ phoneNumber: { code: '050', number: '763 1' } }, 'phoneNumber', 'Phone number must consist of 7 digits'],
    [{ email: '' }, 'email', 'Email is required'],
    [{ email: 'in' }, 'email', 'Minimum 3 symbols'],
    [{ email: 'info@bulvarkafe' }, 'email', 'Wrong email format. E.g. name@example.com'],
    [{ email: `${'i'.repeat(40)}@bulvarkafe.az` }, 'email', 'Maximum 50 symbols'],
    [{ cities: [] }, 'cities', 'Cities is required'],
    [{ isPromoCodeUsing: true, promoCodeVersion: '' }, 'promoCodeVersion', 'Choose the promo code version: Integration (1) or Static (2).'],
  ] as const)('%j → %s: %s', (change, field, message) => {
    expect(errorsOf(change as Partial<PartnerValues>)[field]).toBe(message);
  });

  it('asks for a version only while promo codes are on', () => {
    expect(errorsOf({ isPromoCodeUsing: false, promoCodeVersion: '' }).promoCodeVersion).toBeUndefined();
    expect(errorsOf({ isPromoCodeUsing: true, promoCodeVersion: '1' }).promoCodeVersion).toBeUndefined();
    expect(errorsOf({ isPromoCodeUsing: true, promoCodeVersion: '2' }).promoCodeVersion).toBeUndefined();
  });

  it.each([
    [{ cityId: null }, 'Cities is required'],
    [{ address: '' }, PARTNER_MESSAGES.rowIncomplete],
    [{ latitude: '' }, PARTNER_MESSAGES.rowIncomplete],
    [{ longitude: ' ' }, PARTNER_MESSAGES.rowIncomplete],
    [{ address: '', latitude: '100' }, PARTNER_MESSAGES.rowIncomplete],
    [{ latitude: '90.5' }, 'Latitude must be a number between -90 and 90.'],
    [{ latitude: '-91' }, 'Latitude must be a number between -90 and 90.'],
    [{ latitude: 'north' }, 'Latitude must be a number between -90 and 90.'],
    [{ longitude: '180.01' }, 'Longitude must be a number between -180 and 180.'],
    [{ longitude: '-200' }, 'Longitude must be a number between -180 and 180.'],
    [{ longitude: '49,8,1' }, 'Longitude must be a number between -180 and 180.'],
  ] as const)('a city row with %j → %s', (change, message) => {
    expect(withRow(change)).toBe(message);
  });

  it.each([
    [{ latitude: '-90', longitude: '180' }],
    [{ latitude: '90', longitude: '-180' }],
    [{ latitude: '0', longitude: '0' }],
  ])('accepts the edges of the map %j', (change) => {
    expect(withRow(change)).toBeUndefined();
  });
});

describe('partner multipart bodies', () => {
  const logo = new File(['png'], 'logo.png', { type: 'image/png' });

  it('POST partner: the spec names, promo version only when on, the file only when chosen, Cities[i] per row', () => {
    expect(multipartEntries(createPartnerForm({ ...valid, cities: [baku, { ...baku, cityId: { id: 5, label: 'Lənkəran' }, address: ' Dəniz 2 ' }] }))).toEqual([
      ['name', 'Bulvar Kafe'],
      ['contactPersonFirstName', 'Emin'],
      ['contactPersonLastName', 'Sadıqov'],
      ['phoneNumber', '994707631141'],
      ['email', 'info@bulvarkafe.az'],
      ['isPromoCodeUsing', 'false'],
      ['Cities[0].CityId', '1'],
      ['Cities[0].Address', 'Nizami 1'],
      ['Cities[0].Latitude', '40.4093'],
      ['Cities[0].Longitude', '49.8671'],
      ['Cities[1].CityId', '5'],
      ['Cities[1].Address', 'Dəniz 2'],
      ['Cities[1].Latitude', '40.4093'],
      ['Cities[1].Longitude', '49.8671'],
    ]);
    const promo = multipartEntries(createPartnerForm({ ...valid, isPromoCodeUsing: true, promoCodeVersion: '2', file: logo }));
    expect(promo.slice(5, 8)).toEqual([
      ['isPromoCodeUsing', 'true'],
      ['promoCodeVersion', '2'],
      ['file', 'File:logo.png'],
    ]);
  });

  const stored: PartnerRow = {
    id: 7,
    filePath: 'cdn/13.png',
    name: 'Bulvar Kafe',
    contactPerson: 'Emin Sadıqov',
    contactPersonFirstName: 'Emin',
    contactPersonLastName: 'Sadıqov',
    phoneNumber: '994707631141',
    email: 'info@bulvarkafe.az',
    isPromoCodeUsing: true,
    promoCode: 'Bəli',
    promoCodeVersion: 1,
    isActive: true,
    cities: [
      { id: 15, cityId: 1, cityName: 'Bakı', address: 'Dənizkənarı Milli Park', latitude: 40.3676, longitude: 49.8419 },
      { id: 16, cityId: 5, cityName: 'Lənkəran', address: 'Dəniz sahili küç. 2', latitude: 38.7529, longitude: 48.8475 },
    ],
  };

  it('fills the edit form from the detail: stored rows keep their ids, the version becomes the radio value', () => {
    const values = editValuesOf(stored);
    expect(values).toMatchObject({ file: 'cdn/13.png', isPromoCodeUsing: true, promoCodeVersion: '1', phoneNumber: { code: '070', number: '763 11 41' } });
    expect(values.cities).toEqual([
      { id: 15, cityId: { id: 1, label: 'Bakı' }, address: 'Dənizkənarı Milli Park', latitude: '40.3676', longitude: '49.8419' },
      { id: 16, cityId: { id: 5, label: 'Lənkəran' }, address: 'Dəniz sahili küç. 2', latitude: '38.7529', longitude: '48.8475' },
    ]);
    expect(validate(partnerSchema, values)).toEqual({});
  });

  it('PUT partner: id, Cities[i].Id (0 for a new row), deletedCities[i] for removed stored rows, no file unless chosen', () => {
    const values = editValuesOf(stored);
    const edited: PartnerValues = { ...values, isPromoCodeUsing: false, promoCodeVersion: '', cities: [values.cities[1], { ...baku, address: 'Nizami 5' }] };
    expect(multipartEntries(editPartnerForm(edited, stored))).toEqual([
      ['id', '7'],
      ['name', 'Bulvar Kafe'],
      ['contactPersonFirstName', 'Emin'],
      ['contactPersonLastName', 'Sadıqov'],
      ['phoneNumber', '994707631141'],
      ['email', 'info@bulvarkafe.az'],
      ['isPromoCodeUsing', 'false'],
      ['Cities[0].Id', '16'],
      ['Cities[0].CityId', '5'],
      ['Cities[0].Address', 'Dəniz sahili küç. 2'],
      ['Cities[0].Latitude', '38.7529'],
      ['Cities[0].Longitude', '48.8475'],
      ['Cities[1].Id', '0'],
      ['Cities[1].CityId', '1'],
      ['Cities[1].Address', 'Nizami 5'],
      ['Cities[1].Latitude', '40.4093'],
      ['Cities[1].Longitude', '49.8671'],
      ['deletedCities[0]', '15'],
    ]);
  });
});
