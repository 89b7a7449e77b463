import { listPicker } from '../../components/form/listPicker';
import type { FieldDef, PickerOption } from '../../components/form/types';
import { emptyPhone, fromApiPhone, toApiPhone, type PhoneValue } from '../../lib/phone';
import { FORM_MESSAGES } from '../../generated/messages';
import { completePhone, emailRules, matches, MESSAGES, PATTERNS, required, sameAs, type Schema } from '../../lib/validation';
import type { Schema as ContractSchema } from '../../lib/contract';

/** A row as the server's document declares it (`HumanResourceRow`). */
export type HumanResourceRow = ContractSchema<'HumanResourceRow'>;

/** Named like the JSON fields, so the server's `errors` keys land on them directly. */
interface HumanResourceDetailsValues {
  assetId: PickerOption | null;
  firstName: string;
  lastName: string;
  email: string;
  phone: PhoneValue;
  isMfaActive: boolean;
  isEmployeeSeen: boolean;
}

export interface CreateHumanResourceValues extends HumanResourceDetailsValues {
  password: string;
  confirmPassword: string;
}

export type EditHumanResourceValues = HumanResourceDetailsValues;

export interface AdminPasswordValues {
  password: string;
  confirmPassword: string;
}

/** The asset picker: `GET asset`, 30 per page, searched by name. */
const loadAssets = listPicker('asset');

const identityFields: FieldDef<HumanResourceDetailsValues>[] = [
  { name: 'assetId', label: 'field.assetName', kind: 'picker', load: loadAssets },
  { name: 'firstName', label: 'field.firstName', kind: 'text', autoComplete: 'off' },
  { name: 'lastName', label: 'field.lastName', kind: 'text', autoComplete: 'off' },
  { name: 'email', label: 'field.email', kind: 'email', autoComplete: 'off' },
  { name: 'phone', label: 'field.phone', kind: 'phone' },
];

const switchFields: FieldDef<HumanResourceDetailsValues>[] = [
  { name: 'isMfaActive', label: 'field.otpLogin', kind: 'switch' },
  { name: 'isEmployeeSeen', label: 'field.seeEmployeeId', kind: 'switch' },
];

export const createHumanResourceFields: FieldDef<CreateHumanResourceValues>[] = [
  ...identityFields,
  { name: 'password', label: 'field.password', kind: 'password', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'field.confirmPassword', kind: 'password', autoComplete: 'new-password' },
  ...switchFields,
];

export const editHumanResourceFields: FieldDef<EditHumanResourceValues>[] = [...identityFields, ...switchFields];

export const adminPasswordFields: FieldDef<AdminPasswordValues>[] = [
  { name: 'password', label: 'field.newPassword', kind: 'password', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'field.newPasswordConfirm', kind: 'password', autoComplete: 'new-password' },
];

/** The server's messages for the person (its declared form); the asset's is the edit's own. */
const CREATE = FORM_MESSAGES['POST /api/humanResource'];

const detailsSchema: Schema<HumanResourceDetailsValues> = {
  assetId: [required(CREATE.assetId.required)],
  firstName: [required(CREATE.firstName.required)],
  lastName: [required(CREATE.lastName.required)],
  email: emailRules(CREATE.email),
  phone: [required(CREATE.phone.required), completePhone(MESSAGES.phoneIncomplete)],
};

const letterAndDigit = matches<CreateHumanResourceValues>(PATTERNS.letterAndDigit, CREATE.password.format);

export const createHumanResourceSchema: Schema<CreateHumanResourceValues> = {
  ...detailsSchema,
  // The spec's message for a missing asset names an id nobody sees; a new account asks the person to choose (edit keeps the spec's message).
  assetId: [required(MESSAGES.chooseAsset)],
  password: [required(CREATE.password.required), letterAndDigit],
  confirmPassword: [required(CREATE.confirmPassword.required), letterAndDigit, sameAs('password', CREATE.confirmPassword.same)],
};

export const editHumanResourceSchema: Schema<EditHumanResourceValues> = detailsSchema;

const ADMIN_SET = FORM_MESSAGES['PUT /api/humanResource/changePasswordByAdmin'];

export const adminPasswordSchema: Schema<AdminPasswordValues> = {
  password: [required(ADMIN_SET.password.required), matches(PATTERNS.digit, ADMIN_SET.password.format)],
  // The confirmation is the form's own (the call takes the password once), in the create form's words.
  confirmPassword: [required(CREATE.confirmPassword.required), sameAs('password', CREATE.confirmPassword.same)],
};

export const emptyCreateHumanResource = (): CreateHumanResourceValues => ({
  assetId: null,
  firstName: '',
  lastName: '',
  email: '',
  phone: emptyPhone(),
  password: '',
  confirmPassword: '',
  isMfaActive: false,
  isEmployeeSeen: false,
});

export const emptyAdminPassword = (): AdminPasswordValues => ({ password: '', confirmPassword: '' });

export const editValuesOf = (account: HumanResourceRow): EditHumanResourceValues => ({
  assetId: account.assetId === undefined ? null : { id: account.assetId, label: account.assetName },
  firstName: account.firstName,
  lastName: account.lastName,
  email: account.email,
  phone: fromApiPhone(account.phone),
  isMfaActive: account.isMfaActive,
  isEmployeeSeen: account.isEmployeeSeen,
});

/** The JSON shared by create and edit: the chosen asset's id, trimmed text, the 994 phone, both switches. */
export const detailsPayload = (values: HumanResourceDetailsValues) => ({
  assetId: values.assetId?.id,
  firstName: values.firstName.trim(),
  lastName: values.lastName.trim(),
  email: values.email.trim(),
  phone: toApiPhone(values.phone),
  isMfaActive: values.isMfaActive,
  isEmployeeSeen: values.isEmployeeSeen,
});
