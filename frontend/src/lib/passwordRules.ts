import { FORM_MESSAGES } from '../generated/messages';
import { matches, PATTERNS, required, sameAs, type Schema } from './validation';

/** Own change password and the reset-password link share the new-password rules (spec 5, Own change password). */
export interface NewPasswordValues {
  newPassword: string;
  newPasswordConfirm: string;
}

/** The server's words for both (the reset link's form; the own change has the same). */
const SERVER = FORM_MESSAGES['POST /api/auth/reset-password/confirm'];

export function newPasswordSchema<V extends NewPasswordValues>(): Schema<V> {
  return {
    newPassword: [required(SERVER.newPassword.required), matches(PATTERNS.letterAndDigit, SERVER.newPassword.format)],
    newPasswordConfirm: [
      required(SERVER.newPasswordConfirm.required),
      matches(PATTERNS.digit, SERVER.newPasswordConfirm.format),
      sameAs('newPassword', SERVER.newPasswordConfirm.same),
    ],
  } as Schema<V>;
}
