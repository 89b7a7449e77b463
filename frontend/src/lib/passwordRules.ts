import { matches, PATTERNS, MESSAGES, required, sameAs, type Schema } from './validation';

/** Own change password and the reset-password link share the new-password rules (spec 5, Own change password). */
export interface NewPasswordValues {
  newPassword: string;
  newPasswordConfirm: string;
}

export function newPasswordSchema<V extends NewPasswordValues>(): Schema<V> {
  return {
    newPassword: [required('New password is required'), matches(PATTERNS.letterAndDigit, MESSAGES.letterAndDigit)],
    newPasswordConfirm: [
      required('Confirm password is required'),
      matches(PATTERNS.digit, MESSAGES.digit),
      sameAs('newPassword', 'Both new password need to be the same'),
    ],
  } as Schema<V>;
}
