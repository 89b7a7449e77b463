import { FORM_MESSAGES } from '../../generated/messages';
import type { FieldDef } from '../../components/form/types';
import { newPasswordSchema } from '../../lib/passwordRules';
import { matches, MESSAGES, PATTERNS, required, type Schema } from '../../lib/validation';

export interface OwnPasswordValues {
  oldPassword: string;
  newPassword: string;
  newPasswordConfirm: string;
}

export const ownPasswordSchema: Schema<OwnPasswordValues> = {
  oldPassword: [required(FORM_MESSAGES['PUT /api/user/changePassword'].oldPassword.required), matches(PATTERNS.digit, MESSAGES.digit)],
  ...newPasswordSchema<OwnPasswordValues>(),
};

export const ownPasswordFields: FieldDef<OwnPasswordValues>[] = [
  { name: 'oldPassword', label: 'field.oldPassword', kind: 'password', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'field.newPassword', kind: 'password', autoComplete: 'new-password' },
  { name: 'newPasswordConfirm', label: 'field.newPasswordConfirm', kind: 'password', autoComplete: 'new-password' },
];
