import type { FieldDef } from '../../components/form/types';
import { emptyPhone, fromApiPhone, toApiPhone, type PhoneValue } from '../../lib/phone';
import { Role, roleOptions } from '../../lib/roles';
import type { Schema as ContractSchema } from '../../lib/contract';
import { FORM_MESSAGES } from '../../generated/messages';
import { completePhone, emailRules, matches, MESSAGES, PATTERNS, required, sameAs, type Schema } from '../../lib/validation';

/** A row as the server's document declares it (`UserRow`). */
export type UserRow = ContractSchema<'UserRow'>;

interface UserDetailsValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: PhoneValue;
  /** The select's value; sent as a number. */
  roleId: string;
}

export interface CreateUserValues extends UserDetailsValues {
  password: string;
  confirmPassword: string;
}

export type EditUserValues = UserDetailsValues;

export interface AdminPasswordValues {
  /** The administrator's own current password: re-authentication before changing someone else's. */
  oldPassword: string;
  newPassword: string;
  newPasswordConfirm: string;
}

const roleSelectOptions = roleOptions.map((option) => ({ value: String(option.value), label: option.labelKey }));

const detailFields: FieldDef<UserDetailsValues>[] = [
  { name: 'firstName', label: 'field.firstName', kind: 'text', autoComplete: 'off' },
  { name: 'lastName', label: 'field.lastName', kind: 'text', autoComplete: 'off' },
  { name: 'email', label: 'field.email', kind: 'email', autoComplete: 'off' },
  { name: 'phone', label: 'field.phone', kind: 'phone' },
  { name: 'roleId', label: 'field.role', kind: 'select', options: roleSelectOptions },
];

export const createUserFields: FieldDef<CreateUserValues>[] = [
  ...detailFields,
  { name: 'password', label: 'field.password', kind: 'password', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'field.confirmPassword', kind: 'password', autoComplete: 'new-password' },
];

export const editUserFields: FieldDef<EditUserValues>[] = detailFields;

export const adminPasswordFields: FieldDef<AdminPasswordValues>[] = [
  { name: 'oldPassword', label: 'field.yourPassword', kind: 'password', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'field.newPassword', kind: 'password', autoComplete: 'new-password' },
  { name: 'newPasswordConfirm', label: 'field.newPasswordConfirm', kind: 'password', autoComplete: 'new-password' },
];

const CREATE = FORM_MESSAGES['POST /api/user/register'];
const EDIT = FORM_MESSAGES['PUT /api/user'];
const strongPassword = matches<CreateUserValues>(PATTERNS.strongPassword, CREATE.password.format);
/** An Admin setting another user's password: the server's `...OfAnother` words. */
const ANOTHER = FORM_MESSAGES['PUT /api/user/changePassword'];
const digitPassword = matches<AdminPasswordValues>(PATTERNS.digit, ANOTHER.newPassword.formatOfAnother);

export const createUserSchema: Schema<CreateUserValues> = {
  firstName: [required(CREATE.firstName.required)],
  lastName: [required(CREATE.lastName.required)],
  email: emailRules(CREATE.email),
  phone: [completePhone(MESSAGES.phoneIncomplete)],
  password: [required(CREATE.password.required), strongPassword],
  confirmPassword: [required(CREATE.confirmPassword.required), strongPassword, sameAs('password', CREATE.confirmPassword.same)],
};

export const editUserSchema: Schema<EditUserValues> = {
  firstName: [required(EDIT.firstName.required)],
  lastName: [required(EDIT.lastName.required)],
  email: emailRules(EDIT.email),
  phone: [required(EDIT.phone.required), completePhone(MESSAGES.phoneIncomplete)],
};

export const adminPasswordSchema: Schema<AdminPasswordValues> = {
  oldPassword: [required(ANOTHER.oldPassword.requiredOfAnother), digitPassword],
  newPassword: [required(ANOTHER.newPassword.requiredOfAnother), digitPassword],
  newPasswordConfirm: [
    required(ANOTHER.newPasswordConfirm.requiredOfAnother),
    digitPassword,
    sameAs('newPassword', ANOTHER.newPasswordConfirm.sameOfAnother),
  ],
};

export const emptyCreateUser = (): CreateUserValues => ({
  firstName: '',
  lastName: '',
  email: '',
  phone: emptyPhone(),
  roleId: String(Role.User),
  password: '',
  confirmPassword: '',
});

export const editValuesOf = (user: UserRow): EditUserValues => ({
  firstName: user.firstName,
  lastName: user.lastName,
  email: user.email,
  phone: fromApiPhone(user.phone),
  roleId: String(user.roleId),
});

/** The JSON body shared by create and edit: trimmed text, the 994... phone, a numeric role. */
export const detailsPayload = (values: UserDetailsValues) => ({
  firstName: values.firstName.trim(),
  lastName: values.lastName.trim(),
  email: values.email.trim(),
  phone: toApiPhone(values.phone),
  roleId: Number(values.roleId),
});
