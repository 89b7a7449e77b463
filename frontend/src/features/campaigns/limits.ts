import { FORM_MESSAGES } from '../../generated/messages';
import type { ChoiceOption, FieldDef } from '../../components/form/types';
import type { MessageKey } from '../../lib/i18n';
import type { Rule, Schema } from '../../lib/validation';
import type { Schema as ContractSchema } from '../../lib/contract';

type CampaignRow = ContractSchema<'CampaignRow'>;

/** A campaign's limits as the form holds them (named like the multipart fields). */
export interface LimitValues {
  /** At most this many uses ever; '' is no limit. */
  usageLimitTotal: string;
  /** At most this many uses by one employee per `usageLimitPeriod`; '' is no limit. */
  usageLimitPerEmployee: string;
  /** '' or day, week, month, campaign. */
  usageLimitPeriod: string;
  /** Used only with a redemption code the partner confirms. */
  verifiedOnly: boolean;
}

const SERVER = FORM_MESSAGES['POST /api/campaign'];
export const LIMIT_MESSAGES = {
  total: SERVER.usageLimitTotal.format,
  perEmployee: SERVER.usageLimitPerEmployee.format,
  periodRequired: SERVER.usageLimitPeriod.requiredWithLimit,
} as const;

export const PERIODS = ['day', 'week', 'month', 'campaign'] as const;
export type Period = (typeof PERIODS)[number];

const PERIOD_LABELS: Record<Period, MessageKey> = {
  day: 'limitPeriod.day',
  week: 'limitPeriod.week',
  month: 'limitPeriod.month',
  campaign: 'limitPeriod.campaign',
};

export const periodLabel = (period: string): MessageKey | undefined => PERIOD_LABELS[period as Period];

const periodOptions: ChoiceOption[] = [
  { value: '', label: 'limitPeriod.none' },
  ...PERIODS.map((period) => ({ value: period, label: PERIOD_LABELS[period] })),
];

const text = (value: unknown) => String(value ?? '').trim();

/** An optional whole number within `min`..`max` (as the server reads it: a comma is a point). */
const wholeWithin =
  <V>(min: number, max: number, message: string): Rule<V> =>
  (value) => {
    const typed = text(value);
    if (typed === '') return undefined;
    const number = Number(typed.replace(',', '.'));
    return Number.isInteger(number) && number >= min && number <= max ? undefined : message;
  };

/** The rules of the four fields, for the create and edit forms. */
export const limitRules = <V extends LimitValues>(): Schema<V> =>
  ({
    usageLimitTotal: [wholeWithin<V>(1, 10_000_000, LIMIT_MESSAGES.total)],
    usageLimitPerEmployee: [wholeWithin<V>(1, 1_000, LIMIT_MESSAGES.perEmployee)],
    usageLimitPeriod: [
      (value, values) => {
        const limited = text(values.usageLimitPerEmployee) !== '';
        if (limited && text(value) === '') return LIMIT_MESSAGES.periodRequired;
        return undefined;
      },
    ],
  }) as Schema<V>;

/** The four fields: the total, the per-employee limit with its period (cleared with the limit), the switch. */
export const limitFields = <V extends LimitValues>(): FieldDef<V>[] => [
  { name: 'usageLimitTotal', label: 'field.usageLimitTotal', kind: 'text', inputMode: 'numeric', autoComplete: 'off' },
  {
    name: 'usageLimitPerEmployee',
    label: 'field.usageLimitPerEmployee',
    kind: 'text',
    inputMode: 'numeric',
    autoComplete: 'off',
    updates: (value) => (text(value) === '' ? ({ usageLimitPeriod: '' } as Partial<V>) : {}),
  },
  { name: 'usageLimitPeriod', label: 'field.usageLimitPeriod', kind: 'select', options: periodOptions },
  { name: 'verifiedOnly', label: 'field.verifiedOnly', kind: 'switch' },
];

export const noLimits = (): LimitValues => ({ usageLimitTotal: '', usageLimitPerEmployee: '', usageLimitPeriod: '', verifiedOnly: false });

export const limitValuesOf = (campaign: CampaignRow): LimitValues => ({
  usageLimitTotal: campaign.usageLimitTotal == null ? '' : String(campaign.usageLimitTotal),
  usageLimitPerEmployee: campaign.usageLimitPerEmployee == null ? '' : String(campaign.usageLimitPerEmployee),
  usageLimitPeriod: campaign.usageLimitPeriod ?? '',
  verifiedOnly: campaign.verifiedOnly,
});

/** The multipart parts: an empty limit is left out (no limit). */
export const limitParts = (values: LimitValues) => ({
  usageLimitTotal: text(values.usageLimitTotal) || undefined,
  usageLimitPerEmployee: text(values.usageLimitPerEmployee) || undefined,
  usageLimitPeriod: values.usageLimitPeriod || undefined,
  verifiedOnly: values.verifiedOnly,
});

/** A campaign row's limit fields and uses when it has no limits and no uses yet (a new campaign). */
export const UNLIMITED = {
  usageLimitTotal: null,
  usageLimitPerEmployee: null,
  usageLimitPeriod: null,
  verifiedOnly: false,
  usesCount: 0,
  usesRemaining: null,
} as const satisfies Partial<CampaignRow>;

/** Whether the campaign has used up its total limit. */
export const isExhausted = (campaign: Pick<CampaignRow, 'usageLimitTotal' | 'usesRemaining'>) =>
  campaign.usageLimitTotal != null && campaign.usesRemaining === 0;
