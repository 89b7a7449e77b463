import type { FieldDef } from '../../components/form/types';
import { FORM_MESSAGES } from '../../generated/messages';
import { newPasswordSchema, type NewPasswordValues } from '../../lib/passwordRules';
import { EMAIL_PATTERN, emailRules, matches, maxLength, MESSAGES, minLength, numeric, required, sameAs, type Schema } from '../../lib/validation';

export interface SignInValues {
  userName: string;
  password: string;
  otp: string;
  /** In place of `otp` when the authenticator is lost (the sign-in's other mode). */
  recoveryCode: string;
}

const SIGN_IN = FORM_MESSAGES['POST /api/auth/admin/token'];

/** The server's required messages; that a code is digits is the form's own hint. */
export const signInSchema: Schema<SignInValues> = {
  userName: [required(SIGN_IN.userName.required)],
  password: [required(SIGN_IN.password.required)],
  otp: [required(SIGN_IN.otp.required), numeric(MESSAGES.otpDigits)],
};

/** Signing in with a recovery code: the code replaces the six digits. */
export const recoverySignInSchema: Schema<SignInValues> = {
  userName: signInSchema.userName,
  password: signInSchema.password,
  recoveryCode: [required(MESSAGES.recoveryCodeRequired)],
};

export const signInFields: FieldDef<SignInValues>[] = [
  { name: 'userName', label: 'auth.userName', kind: 'text', placeholder: 'Email and agent number', autoComplete: 'username' },
  { name: 'password', label: 'auth.password', kind: 'password', autoComplete: 'current-password' },
  { name: 'otp', label: 'auth.otp', kind: 'text', inputMode: 'numeric', autoComplete: 'one-time-code', placeholder: '123456' },
];

export const recoverySignInFields: FieldDef<SignInValues>[] = [
  signInFields[0],
  signInFields[1],
  { name: 'recoveryCode', label: 'auth.recoveryCode', kind: 'text', autoComplete: 'off', placeholder: 'xxxxx-xxxxx' },
];

export interface RegistrationValues {
  fullname: string;
  email: string;
  username: string;
  password: string;
  changepassword: string;
  acceptTerms: boolean;
}

/** Registration's own 3-to-50 rule: an empty value already fails it with 'Minimum 3 symbols'. */
const threeToFifty = <V,>() => [required<V>(MESSAGES.min3), minLength<V>(3), maxLength<V>(50)];

export const registrationSchema: Schema<RegistrationValues> = {
  fullname: threeToFifty(),
  email: [...threeToFifty<RegistrationValues>(), matches(EMAIL_PATTERN, FORM_MESSAGES['POST /api/auth/register'].email.format)],
  username: threeToFifty(),
  password: threeToFifty(),
  changepassword: [
    required("Password and Confirm Password didn't match"),
    sameAs('password', "Password and Confirm Password didn't match"),
  ],
  acceptTerms: [required(MESSAGES.acceptTerms)],
};

export const registrationFields: FieldDef<RegistrationValues>[] = [
  { name: 'fullname', label: 'auth.fullname', kind: 'text', placeholder: 'Fullname', autoComplete: 'name' },
  { name: 'email', label: 'auth.userName', kind: 'email', placeholder: 'Email', autoComplete: 'email' },
  { name: 'username', label: 'auth.username', kind: 'text', placeholder: 'Username', autoComplete: 'username' },
  { name: 'password', label: 'auth.password', kind: 'password', placeholder: 'Password', autoComplete: 'new-password' },
  { name: 'changepassword', label: 'auth.confirmPassword', kind: 'password', placeholder: 'Confirm Password', autoComplete: 'new-password' },
];

export interface ForgotPasswordValues {
  email: string;
}

export const forgotPasswordSchema: Schema<ForgotPasswordValues> = { email: emailRules(FORM_MESSAGES['POST /api/user/forgotPassword'].email) };

export const forgotPasswordFields: FieldDef<ForgotPasswordValues>[] = [
  { name: 'email', label: 'auth.userName', kind: 'email', placeholder: 'Email', autoComplete: 'email' },
];

export const resetPasswordSchema: Schema<NewPasswordValues> = newPasswordSchema();

export const resetPasswordFields: FieldDef<NewPasswordValues>[] = [
  { name: 'newPassword', label: 'field.newPassword', kind: 'password', autoComplete: 'new-password' },
  { name: 'newPasswordConfirm', label: 'field.newPasswordConfirm', kind: 'password', autoComplete: 'new-password' },
];
