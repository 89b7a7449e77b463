import type { ImageValue } from '../../components/form/ImagePicker';
import type { FieldDef } from '../../components/form/types';
import { toFormData } from '../../lib/formData';
import { emptyPhone, fromApiPhone, toApiPhone, type PhoneValue } from '../../lib/phone';
import { FORM_MESSAGES } from '../../generated/messages';
import { completePhone, emailRules, matches, MESSAGES, required, type Schema } from '../../lib/validation';
import type { Schema as ContractSchema } from '../../lib/contract';

/** The server's words for each field (its declared form), create and edit alike. */
const SERVER = FORM_MESSAGES['POST /api/asset'];

/** A row as the server's document declares it (`AssetRow`). */
export type AssetRow = ContractSchema<'AssetRow'>;

/** Form values are named like the multipart fields, so the server's `errors` keys land on them directly. */
interface AssetDetailsValues {
  name: string;
  contactPerson: string;
  phoneNumber: PhoneValue;
  email: string;
  /** Create: the chosen File. Edit: the stored filePath until a new File replaces it. */
  file: ImageValue;
}

export interface CreateAssetValues extends AssetDetailsValues {
  barcodePrefix: string;
}

/** The barcode prefix is fixed once employees' barcodes carry it, so edit has none. */
export type EditAssetValues = AssetDetailsValues;

const detailFields: FieldDef<AssetDetailsValues>[] = [
  { name: 'name', label: 'field.assetName', kind: 'text', autoComplete: 'off' },
  { name: 'contactPerson', label: 'field.primaryContactPerson', kind: 'text', autoComplete: 'off' },
  { name: 'phoneNumber', label: 'field.phone', kind: 'phone' },
  { name: 'email', label: 'field.email', kind: 'email', autoComplete: 'off' },
];

export const createAssetFields: FieldDef<CreateAssetValues>[] = [
  ...detailFields,
  { name: 'barcodePrefix', label: 'field.barcodePrefix', kind: 'text', autoComplete: 'off' },
  { name: 'file', label: 'field.image', kind: 'image' },
];

export const editAssetFields: FieldDef<EditAssetValues>[] = [...detailFields, { name: 'file', label: 'field.image', kind: 'image' }];

const detailSchema: Schema<AssetDetailsValues> = {
  name: [required(SERVER.name.required)],
  contactPerson: [required(SERVER.contactPerson.required)],
  phoneNumber: [required(SERVER.phoneNumber.required), completePhone(MESSAGES.phoneIncomplete)],
  email: emailRules(SERVER.email),
};

export const BARCODE_PATTERN = /^[A-Za-z0-9]{1,3}$/;

export const createAssetSchema: Schema<CreateAssetValues> = {
  ...detailSchema,
  barcodePrefix: [required(SERVER.barcodePrefix.required), matches(BARCODE_PATTERN, SERVER.barcodePrefix.format)],
  file: [required(SERVER.file.required)],
};

export const editAssetSchema: Schema<EditAssetValues> = detailSchema;

export const emptyCreateAsset = (): CreateAssetValues => ({
  name: '',
  contactPerson: '',
  phoneNumber: emptyPhone(),
  email: '',
  barcodePrefix: '',
  file: null,
});

export const editValuesOf = (asset: AssetRow): EditAssetValues => ({
  name: asset.name,
  contactPerson: asset.contactPerson,
  phoneNumber: fromApiPhone(asset.contactPersonPhoneNumber),
  email: asset.contactPersonEmail,
  file: asset.filePath,
});

const detailParts = (values: AssetDetailsValues) => ({
  name: values.name.trim(),
  contactPerson: values.contactPerson.trim(),
  phoneNumber: toApiPhone(values.phoneNumber),
  email: values.email.trim(),
  // Only a newly chosen file travels; without one the server keeps the stored image.
  file: values.file instanceof File ? values.file : undefined,
});

/** `POST asset` multipart: name, contactPerson, phoneNumber, email, barcodePrefix, file. */
export const createAssetForm = (values: CreateAssetValues): FormData =>
  toFormData({ ...detailParts(values), barcodePrefix: values.barcodePrefix.trim() });

/** `PUT asset` multipart: id, name, contactPerson, phoneNumber, email and a file only when a new one was chosen. */
export const editAssetForm = (values: EditAssetValues, asset: AssetRow): FormData => toFormData({ id: asset.id, ...detailParts(values) });
