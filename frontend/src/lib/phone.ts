/** Phones travel as 994 + operator code without its leading 0 + 7 digits (e.g. 994501234567). */
const COUNTRY_PREFIX = '994';
export const OPERATOR_CODES = ['050', '051', '055', '070', '077', '099', '010'] as const;
export type OperatorCode = (typeof OPERATOR_CODES)[number];
const DEFAULT_OPERATOR_CODE: OperatorCode = '050';
const SUBSCRIBER_DIGITS = 7;

export interface PhoneValue {
  code: OperatorCode;
  /** The subscriber number as typed, masked as `123 45 67`. */
  number: string;
}

export const emptyPhone = (): PhoneValue => ({ code: DEFAULT_OPERATOR_CODE, number: '' });

/** Applies the `123 45 67` mask to whatever the user typed, dropping non-digits and extra digits. */
export function maskSubscriber(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, SUBSCRIBER_DIGITS);
  return [digits.slice(0, 3), digits.slice(3, 5), digits.slice(5, 7)].filter(Boolean).join(' ');
}

function subscriberDigits(phone: PhoneValue): string {
  return phone.number.replace(/\D/g, '');
}

export function isPhoneEmpty(phone: PhoneValue): boolean {
  return subscriberDigits(phone).length === 0;
}

export function isPhoneComplete(phone: PhoneValue): boolean {
  return subscriberDigits(phone).length === SUBSCRIBER_DIGITS;
}

/** 050 + "123 45 67" → "994501234567"; an empty number gives "". */
export function toApiPhone(phone: PhoneValue): string {
  const digits = subscriberDigits(phone);
  if (!digits) return '';
  return `${COUNTRY_PREFIX}${phone.code.slice(1)}${digits}`;
}

/** "994501234567" → { code: '050', number: '123 45 67' }; anything unrecognised gives the default code. */
export function fromApiPhone(value: string | null | undefined): PhoneValue {
  const digits = (value ?? '').replace(/\D/g, '');
  const match = /^994(\d{2})(\d{7})$/.exec(digits);
  if (!match) return emptyPhone();
  const code = `0${match[1]}`;
  if (!(OPERATOR_CODES as readonly string[]).includes(code)) return emptyPhone();
  return { code: code as OperatorCode, number: maskSubscriber(match[2]) };
}

/** "994501234567" → "+994 50 123 45 67" for tables and drawers. */
export function formatPhone(value: string | null | undefined): string {
  const digits = (value ?? '').replace(/\D/g, '');
  const match = /^994(\d{2})(\d{3})(\d{2})(\d{2})$/.exec(digits);
  return match ? `+994 ${match[1]} ${match[2]} ${match[3]} ${match[4]}` : (value ?? '');
}
