import { isPhoneComplete, isPhoneEmpty, type PhoneValue } from './phone';

/**
 * A rule returns its message when the value breaks it. Rules of one field run
 * in order and the first message wins, so `required` goes first and the
 * format rules skip empty values.
 */
export type Rule<V> = (value: unknown, values: V) => string | undefined;
export type Schema<V> = { readonly [K in keyof V]?: readonly Rule<V>[] };
export type Errors<V> = Partial<Record<keyof V & string, string>>;

export function validate<V extends object>(schema: Schema<V>, values: V): Errors<V> {
  const errors: Errors<V> = {};
  for (const field of Object.keys(schema) as (keyof V & string)[]) {
    for (const rule of schema[field] ?? []) {
      const message = rule(values[field], values);
      if (message) {
        errors[field] = message;
        break;
      }
    }
  }
  return errors;
}

export function hasErrors<V>(errors: Errors<V>): boolean {
  return Object.values(errors).some(Boolean);
}

function isPhoneValue(value: unknown): value is PhoneValue {
  return typeof value === 'object' && value !== null && 'code' in value && 'number' in value;
}

function isBlank(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (isPhoneValue(value)) return isPhoneEmpty(value);
  return false;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

export const required =
  <V>(message: string): Rule<V> =>
  (value) =>
    isBlank(value) || value === false ? message : undefined;

export const minLength =
  <V>(min: number, message: string = MESSAGES.min3): Rule<V> =>
  (value) =>
    !isBlank(value) && text(value).length < min ? message : undefined;

export const maxLength =
  <V>(max: number, message: string = MESSAGES.max50): Rule<V> =>
  (value) =>
    !isBlank(value) && text(value).length > max ? message : undefined;

export const matches =
  <V>(pattern: RegExp, message: string): Rule<V> =>
  (value) =>
    !isBlank(value) && !pattern.test(text(value)) ? message : undefined;

export const sameAs =
  <V>(field: keyof V, message: string): Rule<V> =>
  (value, values) =>
    !isBlank(value) && value !== values[field] ? message : undefined;

export const numeric = <V>(message: string): Rule<V> => matches(/^\d+$/, message);

export const completePhone =
  <V>(message: string): Rule<V> =>
  (value) =>
    isPhoneValue(value) && !isPhoneEmpty(value) && !isPhoneComplete(value) ? message : undefined;

const DECIMAL_PATTERN = /^-?\d+(?:\.\d+)?$/;

/** A decimal written with a dot (40.4093) between `min` and `max` inclusive; empty values are left to `required`. */
export const decimalBetween =
  <V>(min: number, max: number, message: string): Rule<V> =>
  (value) => {
    if (isBlank(value)) return undefined;
    // A decimal comma is read as a dot (the form sends it with a dot): "40,41" is 40.41.
    const written = text(value).replace(',', '.');
    if (!DECIMAL_PATTERN.test(written)) return message;
    const number = Number(written);
    return number < min || number > max ? message : undefined;
  };

/** Every row of a repeating group must pass `rowSchema`; the group reports the first message of the first broken row. */
export const eachRow =
  <V>(rowSchema: Schema<Record<string, unknown>>): Rule<V> =>
  (value) => {
    for (const row of Array.isArray(value) ? (value as Record<string, unknown>[]) : []) {
      const message = Object.values(validate(rowSchema, row)).find(Boolean);
      if (message) return message;
    }
    return undefined;
  };

/**
 * The server's address rule (src/core/validation.rs, is_email): printable ASCII with one `@` and a
 * dotted domain of letters, digits and `-`. ASCII only: it is where both database engines agree on
 * which addresses are the same; an internationalised domain is written in its `xn--` form.
 */
export const EMAIL_PATTERN = /^[!-?A-~]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;
export const PATTERNS = {
  /** 8+ with a lowercase and an uppercase letter, a digit and one of !@#$%^&*_- */
  strongPassword: /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[!@#$%^&*_-]).{8,}$/,
  /** 8+ with a letter and a digit. */
  letterAndDigit: /^(?=.*[A-Za-z])(?=.*\d).{8,}$/,
  /** 8+ with a digit. */
  digit: /^(?=.*\d).{8,}$/,
};

/** The specification's messages, verbatim; they are not translated. */
export const MESSAGES = {
  min3: 'Minimum 3 symbols',
  max50: 'Maximum 50 symbols',
  emailRequired: 'Email is required',
  emailFormat: 'Wrong email format. E.g. name@example.com',
  phoneIncomplete: 'Phone number must consist of 7 digits',
  strongPassword: 'Password must consist of an uppercase letter, a lowercase letter, a number and a character.',
  letterAndDigit: 'Password must consist of a letter, a number.',
  digit: 'Password must consist of a number.',
  otpDigits: 'Otp must consist of digits',
  recoveryCodeRequired: 'Enter one of your recovery codes',
  acceptTerms: 'You must accept the terms and conditions',
  locked: 'You are locked.',
  signInFailed: 'The login detail is incorrect',
  // An export's date range: the spec gives it no messages, these follow its "X is required" wording.
  startDateRequired: 'Start date is required',
  endDateRequired: 'End date is required',
  endBeforeStart: 'End date cannot be before the start date',
  // An asset picker left empty where the spec's 'Asset Id is required' would name an id nobody sees.
  chooseAsset: 'Choose an asset',
  // A webhook limited to one partner with none chosen (the server takes a missing one as every partner).
  choosePartner: 'Choose a partner',
} as const;

/**
 * The server's messages for one declared form field, by the rule they answer
 * (`FORM_MESSAGES` in src/generated/messages.ts, generated from its document).
 */
export interface FieldMessages {
  readonly required?: string;
  readonly format?: string;
  readonly minLength?: string;
  readonly maxLength?: string;
  readonly taken?: string;
}

/** "Email as above": required, 3 to 50 characters, valid format; the server's words when its form declares them. */
export function emailRules<V>(messages: FieldMessages = {}): Rule<V>[] {
  return [
    required(messages.required ?? MESSAGES.emailRequired),
    minLength(3, messages.minLength ?? MESSAGES.min3),
    maxLength(50, messages.maxLength ?? MESSAGES.max50),
    matches(EMAIL_PATTERN, messages.format ?? MESSAGES.emailFormat),
  ];
}
