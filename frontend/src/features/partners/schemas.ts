import type { ImageValue } from '../../components/form/ImagePicker';
import { listPicker } from '../../components/form/listPicker';
import type { FieldDef, PickerOption } from '../../components/form/types';
import { toFormData } from '../../lib/formData';
import { emptyPhone, fromApiPhone, toApiPhone, type PhoneValue } from '../../lib/phone';
import { FORM_MESSAGES } from '../../generated/messages';
import { completePhone, decimalBetween, eachRow, emailRules, MESSAGES, required, type Schema } from '../../lib/validation';
import type { Schema as ContractSchema, Detail } from '../../lib/contract';

export const PromoCodeVersion = { Integration: 1, Static: 2 } as const;

/** One branch of a partner, as `GET partner/{id}` and `GET partner/cities/{partnerId}` return it. */
export type PartnerCity = NonNullable<Detail<'PartnerRow'>['cities']>[number];

/** A row as the server's document declares it (`PartnerRow`). */
export type PartnerRow = ContractSchema<'PartnerRow'>;

/** One city row of the form; `id` is the stored branch, 0 for a row added in this form. */
export type CityRowValues = {
  id: number;
  cityId: PickerOption | null;
  address: string;
  latitude: string;
  longitude: string;
};

/** Named like the multipart fields, so the server's `errors` keys land on them (rows under `cities`). */
export interface PartnerValues {
  name: string;
  contactPersonFirstName: string;
  contactPersonLastName: string;
  phoneNumber: PhoneValue;
  email: string;
  file: ImageValue;
  isPromoCodeUsing: boolean;
  /** '' (none), '1' Integration or '2' Static: the radio's value. */
  promoCodeVersion: string;
  cities: CityRowValues[];
}

/** The server's messages (its declared partner form, create and edit alike). */
const SERVER = FORM_MESSAGES['POST /api/partner'];
export const PARTNER_MESSAGES = {
  citiesRequired: SERVER['Cities[0].CityId'].required,
  rowIncomplete: SERVER['Cities[0].Address'].required,
  latitude: SERVER['Cities[0].Latitude'].format,
  longitude: SERVER['Cities[0].Longitude'].format,
  promoCodeVersion: SERVER.promoCodeVersion.required,
} as const;

/** The rules of one city row; a row without a city gets the server's own 'Cities is required'. */
const cityRowSchema: Schema<Record<string, unknown>> = {
  cityId: [required(PARTNER_MESSAGES.citiesRequired)],
  address: [required(PARTNER_MESSAGES.rowIncomplete)],
  latitude: [required(PARTNER_MESSAGES.rowIncomplete), decimalBetween(-90, 90, PARTNER_MESSAGES.latitude)],
  longitude: [required(PARTNER_MESSAGES.rowIncomplete), decimalBetween(-180, 180, PARTNER_MESSAGES.longitude)],
};

export const newCityRow = (): CityRowValues => ({ id: 0, cityId: null, address: '', latitude: '', longitude: '' });

/** City names come from `GET city` in the content language. */
const loadCities = listPicker('city');

export const partnerFields: FieldDef<PartnerValues>[] = [
  { name: 'name', label: 'field.partnerName', kind: 'text', autoComplete: 'off' },
  { name: 'contactPersonFirstName', label: 'field.contactPersonFirstName', kind: 'text', autoComplete: 'off' },
  { name: 'contactPersonLastName', label: 'field.contactPersonLastName', kind: 'text', autoComplete: 'off' },
  { name: 'phoneNumber', label: 'field.phone', kind: 'phone' },
  { name: 'email', label: 'field.email', kind: 'email', autoComplete: 'off' },
  { name: 'file', label: 'field.image', kind: 'image' },
  // Turning promo codes off clears the version, so an old choice never travels with the switch off.
  { name: 'isPromoCodeUsing', label: 'field.promoCodeUsing', kind: 'switch', updates: (on) => (on ? {} : { promoCodeVersion: '' }) },
  {
    name: 'promoCodeVersion',
    label: 'field.promoCodeVersion',
    kind: 'radio',
    options: [
      { value: String(PromoCodeVersion.Integration), label: 'promoVersion.integration' },
      { value: String(PromoCodeVersion.Static), label: 'promoVersion.static' },
    ],
    visibleWhen: (values) => values.isPromoCodeUsing,
  },
  {
    name: 'cities',
    label: 'field.cities',
    kind: 'rows',
    addLabel: 'button.addCity',
    rowLabel: 'field.city',
    newRow: newCityRow,
    rowSchema: cityRowSchema,
    fields: [
      { name: 'cityId', label: 'field.city', kind: 'picker', load: loadCities },
      { name: 'address', label: 'field.address', kind: 'text', autoComplete: 'off' },
      { name: 'latitude', label: 'field.latitude', kind: 'text', inputMode: 'decimal', placeholder: '40.4093' },
      { name: 'longitude', label: 'field.longitude', kind: 'text', inputMode: 'decimal', placeholder: '49.8671' },
    ],
  },
];

/**
 * Create and edit share these rules. The spec gives edit none, but the server
 * applies the same checks to both, and a partner without branches or with an
 * off-map branch is not data anyone can use.
 */
export const partnerSchema: Schema<PartnerValues> = {
  name: [required(SERVER.name.required)],
  contactPersonFirstName: [required(SERVER.contactPersonFirstName.required)],
  contactPersonLastName: [required(SERVER.contactPersonLastName.required)],
  phoneNumber: [required(SERVER.phoneNumber.required), completePhone(MESSAGES.phoneIncomplete)],
  email: emailRules(SERVER.email),
  promoCodeVersion: [(version, values) => (values.isPromoCodeUsing && !version ? PARTNER_MESSAGES.promoCodeVersion : undefined)],
  cities: [required(PARTNER_MESSAGES.citiesRequired), eachRow(cityRowSchema)],
};

/** The server reports a partner without any row as `cityId`. */
export const partnerErrorAliases = { cityId: 'cities' } as const;

export const emptyPartner = (): PartnerValues => ({
  name: '',
  contactPersonFirstName: '',
  contactPersonLastName: '',
  phoneNumber: emptyPhone(),
  email: '',
  file: null,
  isPromoCodeUsing: false,
  promoCodeVersion: '',
  cities: [newCityRow()],
});

export const editValuesOf = (partner: PartnerRow): PartnerValues => ({
  name: partner.name,
  contactPersonFirstName: partner.contactPersonFirstName ?? '',
  contactPersonLastName: partner.contactPersonLastName ?? '',
  phoneNumber: fromApiPhone(partner.phoneNumber),
  email: partner.email,
  file: partner.filePath,
  isPromoCodeUsing: partner.isPromoCodeUsing,
  promoCodeVersion: partner.promoCodeVersion === null ? '' : String(partner.promoCodeVersion),
  cities: (partner.cities ?? []).map((city) => ({
    id: city.id,
    cityId: { id: city.cityId, label: city.cityName },
    address: city.address,
    latitude: String(city.latitude),
    longitude: String(city.longitude),
  })),
});

const detailParts = (values: PartnerValues) => ({
  name: values.name.trim(),
  contactPersonFirstName: values.contactPersonFirstName.trim(),
  contactPersonLastName: values.contactPersonLastName.trim(),
  phoneNumber: toApiPhone(values.phoneNumber),
  email: values.email.trim(),
  isPromoCodeUsing: values.isPromoCodeUsing,
  promoCodeVersion: values.isPromoCodeUsing ? values.promoCodeVersion : undefined,
  // Optional, and without a new one the server keeps the stored image.
  file: values.file instanceof File ? values.file : undefined,
});

/** A coordinate as the server reads it: a decimal comma ("40,41", as many keyboards type it) becomes a dot. */
export const decimalText = (value: string) => value.trim().replace(',', '.');

const cityParts = (row: CityRowValues) => ({
  CityId: row.cityId?.id,
  Address: row.address.trim(),
  Latitude: decimalText(row.latitude),
  Longitude: decimalText(row.longitude),
});

/** `POST partner` multipart, with `Cities[i].CityId`, `.Address`, `.Latitude`, `.Longitude` per row. */
export const createPartnerForm = (values: PartnerValues): FormData =>
  toFormData({ ...detailParts(values), Cities: values.cities.map(cityParts) });

/**
 * `PUT partner` multipart: as create plus `id`, `Cities[i].Id` (0 for a row
 * added here) and `deletedCities[i]` for each stored branch whose row was
 * removed; the server applies all of it in one transaction.
 */
export function editPartnerForm(values: PartnerValues, partner: PartnerRow): FormData {
  const kept = new Set(values.cities.map((row) => row.id));
  const deletedCities = (partner.cities ?? []).map((city) => city.id).filter((id) => !kept.has(id));
  return toFormData(
    {
      id: partner.id,
      ...detailParts(values),
      Cities: values.cities.map((row) => ({ Id: row.id, ...cityParts(row) })),
      deletedCities,
    },
    { indexedLists: ['deletedCities'] },
  );
}
