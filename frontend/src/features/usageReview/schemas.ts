import { FORM_MESSAGES } from '../../generated/messages';
import type { FieldDef } from '../../components/form/types';
import { maxLength, numeric, required, type Rule, type Schema } from '../../lib/validation';
import type { Schema as ContractSchema } from '../../lib/contract';

/** A row as the server's document declares it (`UsageReviewRow`). */
export type UsageReviewRow = ContractSchema<'UsageReviewRow'>;
/** The rules' thresholds as `GET usageReview/settings` answers them. */
export type ReviewSettings = ContractSchema<'ReviewSettings'>;

/** A review's state, as the server stores it (the `State` filter). */
export const REVIEW_STATE = { open: 0, cleared: 1, voided: 2 } as const;

/** The server's messages (its document's x-messages), so both sides say the same. */
const SETTINGS = FORM_MESSAGES['PUT /api/usageReview/settings'];
const VOID = FORM_MESSAGES['POST /api/usageReview/{id}/void'];

/** The void's reason: 1 to 500 characters, as the server holds it. */
export const VOID_REASON_MAX = 500;

export interface VoidValues {
  reason: string;
}

export const voidFields: readonly FieldDef<VoidValues>[] = [{ name: 'reason', label: 'field.voidReason', kind: 'textarea', rows: 4 }];

export const voidSchema: Schema<VoidValues> = {
  // The server's own words for a text too long (translated as its template "Maximum {max} symbols").
  reason: [required(VOID.reason.required), maxLength(VOID_REASON_MAX, `Maximum ${VOID_REASON_MAX} symbols`)],
};

export interface SettingsValues {
  manyUses: string;
  manyUsesMinutes: string;
  twoPartnersMinutes: string;
}

/** A whole number from `min` to `max`; other text gets `message` (empty is left to `required`). */
const wholeBetween =
  <V>(min: number, max: number, message: string): Rule<V> =>
  (value) => {
    const text = typeof value === 'string' ? value.trim() : '';
    if (!text) return undefined;
    const number = Number(text);
    return !/^\d+$/.test(text) || number < min || number > max ? message : undefined;
  };

export const settingsFields: readonly FieldDef<SettingsValues>[] = [
  { name: 'manyUses', label: 'field.manyUses', kind: 'number', inputMode: 'numeric' },
  { name: 'manyUsesMinutes', label: 'field.manyUsesMinutes', kind: 'number', inputMode: 'numeric' },
  { name: 'twoPartnersMinutes', label: 'field.twoPartnersMinutes', kind: 'number', inputMode: 'numeric' },
];

export const settingsSchema: Schema<SettingsValues> = {
  manyUses: [required(SETTINGS.manyUses.required), numeric(SETTINGS.manyUses.format), wholeBetween(1, 1000, SETTINGS.manyUses.maximum)],
  manyUsesMinutes: [
    required(SETTINGS.manyUsesMinutes.required),
    numeric(SETTINGS.manyUsesMinutes.format),
    wholeBetween(1, 1440, SETTINGS.manyUsesMinutes.maximum),
  ],
  twoPartnersMinutes: [
    required(SETTINGS.twoPartnersMinutes.required),
    numeric(SETTINGS.twoPartnersMinutes.format),
    wholeBetween(1, 1440, SETTINGS.twoPartnersMinutes.maximum),
  ],
};

export const settingsValuesOf = (settings: ReviewSettings): SettingsValues => ({
  manyUses: String(settings.manyUses),
  manyUsesMinutes: String(settings.manyUsesMinutes),
  twoPartnersMinutes: String(settings.twoPartnersMinutes),
});

export const settingsPayload = (values: SettingsValues): ReviewSettings => ({
  manyUses: Number(values.manyUses.trim()),
  manyUsesMinutes: Number(values.manyUsesMinutes.trim()),
  twoPartnersMinutes: Number(values.twoPartnersMinutes.trim()),
});
