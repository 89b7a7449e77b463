import { FORM_MESSAGES } from '../../generated/messages';
import type { ExportForm } from '../../components/ExportControl';
import type { ChoiceOption, FieldDef, PickerLoader, PickerOption } from '../../components/form/types';
import { api } from '../../lib/api';
import { t } from '../../lib/i18n';
import { numeric, required, type Rule, type Schema } from '../../lib/validation';
import type { Schema as ContractSchema } from '../../lib/contract';

/** A row as the server's document declares it (`PromoCodeRow`). */
export type PromoCodeRow = ContractSchema<'PromoCodeRow'>;

/** The server's messages (the specification's campaigns part, Promo code create), from its document. */
const SERVER = FORM_MESSAGES['POST /api/promoCode'];
export const PROMO_MESSAGES = {
  countRequired: SERVER.count.required,
  countNumber: SERVER.count.format,
  countMax: SERVER.count.maximum,
  countMin: SERVER.count.minimum,
  partner: SERVER.partnerId.required,
  category: SERVER.campaignId.required,
} as const;

export const MAX_COUNT = 500;

/** `GET partner?status=true`: active partners that hand out promo codes, searched by name, 30 a page. */
export const promoPartnerPicker: PickerLoader = async (search, skip, take, signal) => {
  const page = await api.list<{ id: number; name: string }>(
    'partner',
    { Skip: skip, Take: take, SortField: 'name', OrderBy: true, status: true, Name: search.trim() },
    signal,
  );
  return { items: page.data.map((partner) => ({ id: partner.id, label: partner.name })), total: page.totalCount };
};

interface PromoCampaign {
  id: number;
  name: string;
  nameAz: string | null;
}

/** The chosen partner's campaigns (`GET campaign/forPromoCode?partnerId=`), labelled by nameAz, else name. */
export async function promoCampaigns(partner: unknown, signal: AbortSignal): Promise<ChoiceOption[]> {
  const partnerId = (partner as PickerOption | null)?.id;
  if (!partnerId) return [];
  const options: ChoiceOption[] = [];
  for (let skip = 0; ; skip += 100) {
    const page = await api.list<PromoCampaign>('campaign/forPromoCode', { partnerId, Skip: skip, Take: 100 }, signal);
    options.push(...page.data.map((campaign) => ({ value: String(campaign.id), label: { raw: campaign.nameAz || campaign.name } })));
    if (page.data.length === 0 || options.length >= page.totalCount) return options;
  }
}

interface Target {
  partnerId: PickerOption | null;
  /** The chosen campaign's id, as the select holds it ('campaign category' in the spec's words). */
  campaignId: string;
}

export interface PromoCodeValues extends Target {
  count: string;
}

const targetFields: FieldDef<Target>[] = [
  // Another partner offers other campaigns: the chosen one is dropped.
  { name: 'partnerId', label: 'field.partner', kind: 'picker', load: promoPartnerPicker, updates: () => ({ campaignId: '' }) },
  {
    name: 'campaignId',
    // The spec calls this choice 'campaign category', but it lists the partner's campaigns: the
    // label says what it lists (the spec's message 'Campaign category is required' stays).
    label: 'field.campaign',
    kind: 'dependentSelect',
    dependsOn: 'partnerId',
    loadOptions: promoCampaigns,
    emptyOption: 'promoCodes.chooseCategory',
  },
];

const targetSchema: Schema<Target> = {
  partnerId: [required(PROMO_MESSAGES.partner)],
  campaignId: [required(PROMO_MESSAGES.category)],
};

const within =
  <V>(min: number, max: number): Rule<V> =>
  (value) => {
    const count = Number(String(value ?? '').trim());
    if (!String(value ?? '').trim() || Number.isNaN(count)) return undefined;
    if (count > max) return PROMO_MESSAGES.countMax;
    return count < min ? PROMO_MESSAGES.countMin : undefined;
  };

export const promoCodeFields: FieldDef<PromoCodeValues>[] = [
  ...(targetFields as FieldDef<PromoCodeValues>[]),
  { name: 'count', label: 'field.count', kind: 'text', inputMode: 'numeric', autoComplete: 'off' },
];

export const promoCodeSchema: Schema<PromoCodeValues> = {
  ...(targetSchema as Schema<PromoCodeValues>),
  count: [required(PROMO_MESSAGES.countRequired), numeric(PROMO_MESSAGES.countNumber), within(1, MAX_COUNT)],
};

export const emptyPromoCodes = (): PromoCodeValues => ({ partnerId: null, campaignId: '', count: '' });

/** `POST promoCode {partnerId, campaignId, count}`. */
export const promoCodePayload = (values: PromoCodeValues) => ({
  partnerId: values.partnerId?.id,
  campaignId: Number(values.campaignId),
  count: Number(values.count.trim()),
});

export const createdMessage = (values: PromoCodeValues) => {
  const count = Number(values.count.trim());
  return count === 1 ? t('promoCodes.createdOne') : t('promoCodes.created', { count });
};

/** The 'Export Excel' dialog: partner and campaign category, then `GET promoCode/export/{id}` → Promocode.xlsx. */
export const promoExportForm: ExportForm<Target> = {
  fields: targetFields,
  schema: targetSchema,
  initialValues: () => ({ partnerId: null, campaignId: '' }),
  query: (values) => ({ partnerId: values.partnerId?.id }),
  path: (values) => `promoCode/export/${Number(values.campaignId)}`,
};
