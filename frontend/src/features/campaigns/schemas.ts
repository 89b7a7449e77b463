import { FORM_MESSAGES } from '../../generated/messages';
import type { ImageValue } from '../../components/form/ImagePicker';
import { listPicker } from '../../components/form/listPicker';
import type { ChoiceOption, FieldDef, PickerOption } from '../../components/form/types';
import { api } from '../../lib/api';
import { dateTimeInputValue, localDateTimeToIso } from '../../lib/dates';
import { toFormData } from '../../lib/formData';
import { t } from '../../lib/i18n';
import { required, type Rule, type Schema } from '../../lib/validation';
import type { Schema as ContractSchema, Detail } from '../../lib/contract';
import { limitFields, limitParts, limitRules, limitValuesOf, noLimits, type LimitValues } from './limits';

/** A row as the server's document declares it (`CampaignRow`). */
export type CampaignRow = ContractSchema<'CampaignRow'>;

/** `GET campaign/{id}`: the row plus every language, the background image and the linked assets. */
export type CampaignDetail = Detail<'CampaignRow'>;

/** Whether a campaign is a single row's answer, with its languages and assets, or a list row. */
export const isCampaignDetail = (campaign: CampaignRow): campaign is CampaignDetail => campaign.assetList !== undefined;

/** Named like the multipart fields, so the server's `errors` keys land on them. */
export interface CampaignValues extends LimitValues {
  partnerId: PickerOption | null;
  discountPercent: string;
  /** datetime-local values (yyyy-MM-ddTHH:mm) in the browser's zone. */
  startDate: string;
  expireDate: string;
  campaignCategoryId: PickerOption | null;
  nameAz: string;
  nameEn: string;
  nameRu: string;
  descriptionAz: string;
  descriptionEn: string;
  descriptionRu: string;
  file: ImageValue;
  backgroundFile: ImageValue;
  specialOffer: boolean;
  isPremium: boolean;
  isTrend: boolean;
  assets: PickerOption[];
  /** A position in the category ('' keeps it; on create or in a new category: last). */
  order: string;
  /** The campaign's status (edit): the order is offered only while it is active. */
  isActive: boolean;
}

/** The spec's messages (Campaign create and edit) and the server's for the rules beyond them. */
const SERVER = FORM_MESSAGES['POST /api/campaign'];
export const CAMPAIGN_MESSAGES = {
  partner: SERVER.partnerId.required,
  discountRequired: SERVER.discountPercent.required,
  discountNumber: SERVER.discountPercent.format,
  discountMin: SERVER.discountPercent.minimum,
  discountMax: SERVER.discountPercent.maximum,
  discountWhole: SERVER.discountPercent.whole,
  startRequired: SERVER.startDate.required,
  startInPast: SERVER.startDate.notPast,
  expireRequired: SERVER.expireDate.required,
  expireBeforeStart: SERVER.expireDate.afterStart,
  category: SERVER.campaignCategoryId.required,
  name: SERVER.nameAz.required,
  description: SERVER.descriptionAz.required,
  file: SERVER.file.required,
  backgroundFile: SERVER.backgroundFile.required,
  notificationText: FORM_MESSAGES['PUT /api/campaign/changeNotificationStatus'].text.required,
} as const;

/** The server lets a start up to five minutes old count as now (the input has minute precision). */
const START_GRACE_MS = 5 * 60_000;

const discountNumber = (value: unknown) => Number(String(value).trim().replace(',', '.'));

const discountRules: Rule<CampaignValues>[] = [
  required(CAMPAIGN_MESSAGES.discountRequired),
  (value) => (Number.isFinite(discountNumber(value)) ? undefined : CAMPAIGN_MESSAGES.discountNumber),
  (value) => (discountNumber(value) < 0 ? CAMPAIGN_MESSAGES.discountMin : undefined),
  (value) => (discountNumber(value) > 100 ? CAMPAIGN_MESSAGES.discountMax : undefined),
  (value) => (Number.isInteger(discountNumber(value)) ? undefined : CAMPAIGN_MESSAGES.discountWhole),
];

const instant = (value: unknown) => (typeof value === 'string' && value ? new Date(localDateTimeToIso(value)).getTime() : NaN);

const expireAfterStart: Rule<CampaignValues> = (value, values) =>
  Number.isFinite(instant(value)) && Number.isFinite(instant(values.startDate)) && instant(value) <= instant(values.startDate)
    ? CAMPAIGN_MESSAGES.expireBeforeStart
    : undefined;

const sharedRules: Schema<CampaignValues> = {
  partnerId: [required(CAMPAIGN_MESSAGES.partner)],
  discountPercent: discountRules,
  startDate: [required(CAMPAIGN_MESSAGES.startRequired)],
  expireDate: [required(CAMPAIGN_MESSAGES.expireRequired), expireAfterStart],
  campaignCategoryId: [required(CAMPAIGN_MESSAGES.category)],
  nameAz: [required(CAMPAIGN_MESSAGES.name)],
  nameEn: [required(CAMPAIGN_MESSAGES.name)],
  nameRu: [required(CAMPAIGN_MESSAGES.name)],
  descriptionAz: [required(CAMPAIGN_MESSAGES.description)],
  descriptionEn: [required(CAMPAIGN_MESSAGES.description)],
  descriptionRu: [required(CAMPAIGN_MESSAGES.description)],
  ...limitRules<CampaignValues>(),
};

/** Create: a start not earlier than now, and both images. */
export const createCampaignSchema = (now: () => number = Date.now): Schema<CampaignValues> => ({
  ...sharedRules,
  startDate: [
    required(CAMPAIGN_MESSAGES.startRequired),
    (value) => (instant(value) < now() - START_GRACE_MS ? CAMPAIGN_MESSAGES.startInPast : undefined),
  ],
  file: [required(CAMPAIGN_MESSAGES.file)],
  backgroundFile: [required(CAMPAIGN_MESSAGES.backgroundFile)],
});

/** Edit keeps the stored images when none is chosen, and a running campaign keeps its past start. */
export const editCampaignSchema: Schema<CampaignValues> = sharedRules;

/** Partners from `GET partner/filter` (Name, 30 a page). */
export const loadPartners = listPicker('partner/filter');
/** Categories in the content language. */
export const loadCategories = listPicker('campaign/category');
/** Assets by name, 30 a page. */
export const loadAssets = listPicker('asset');

interface OrderOption {
  id: number;
  order: number;
  partnerName: string;
  campaignName: string;
}

/** The positions of the chosen category (`GET campaign/campaignOrdersNew?categoryId=`), '2 · Araz Market: Yay endirimi'. */
export async function categoryOrders(category: unknown, signal: AbortSignal): Promise<ChoiceOption[]> {
  const id = (category as PickerOption | null)?.id;
  if (!id) return [];
  const page = await api.list<OrderOption>('campaign/campaignOrdersNew', { categoryId: id }, signal);
  return page.data.map((option) => ({
    value: String(option.order),
    label: { raw: t('order.option', { order: option.order, partner: option.partnerName, campaign: option.campaignName }) },
  }));
}

const LANGUAGES = [
  { tab: { raw: 'Az' }, name: 'nameAz', nameLabel: 'field.nameAz', description: 'descriptionAz', descriptionLabel: 'field.descriptionAz' },
  { tab: { raw: 'En' }, name: 'nameEn', nameLabel: 'field.nameEn', description: 'descriptionEn', descriptionLabel: 'field.descriptionEn' },
  { tab: { raw: 'Ru' }, name: 'nameRu', nameLabel: 'field.nameRu', description: 'descriptionRu', descriptionLabel: 'field.descriptionRu' },
] as const;

/** A tab per language with its name and 4-row description; En and Ru can copy both from Az. */
const languageFields: FieldDef<CampaignValues>[] = LANGUAGES.flatMap((language): FieldDef<CampaignValues>[] => {
  const copies = language.name !== 'nameAz';
  return [
    { name: language.name, label: language.nameLabel, kind: 'text', autoComplete: 'off', tab: language.tab, copyFrom: copies ? 'nameAz' : undefined },
    { name: language.description, label: language.descriptionLabel, kind: 'textarea', rows: 4, tab: language.tab, copyFrom: copies ? 'descriptionAz' : undefined },
  ];
});

function campaignFields(orderEmpty: 'order.last' | 'order.current', orderVisible?: (values: CampaignValues) => boolean): FieldDef<CampaignValues>[] {
  return [
    { name: 'partnerId', label: 'field.partner', kind: 'picker', load: loadPartners },
    { name: 'discountPercent', label: 'field.discountPercent', kind: 'text', inputMode: 'numeric', autoComplete: 'off' },
    { name: 'startDate', label: 'field.startDate', kind: 'datetime' },
    { name: 'expireDate', label: 'field.expireDate', kind: 'datetime' },
    // A new category has other positions: the chosen one no longer applies.
    { name: 'campaignCategoryId', label: 'field.campaignCategory', kind: 'picker', load: loadCategories, updates: () => ({ order: '' }) },
    {
      name: 'order',
      label: 'field.order',
      kind: 'dependentSelect',
      dependsOn: 'campaignCategoryId',
      loadOptions: categoryOrders,
      emptyOption: orderEmpty,
      visibleWhen: orderVisible,
    },
    ...languageFields,
    { name: 'file', label: 'field.image', kind: 'image' },
    { name: 'backgroundFile', label: 'field.backgroundImage', kind: 'image' },
    { name: 'specialOffer', label: 'field.specialOffer', kind: 'switch' },
    { name: 'isPremium', label: 'field.premium', kind: 'switch' },
    { name: 'isTrend', label: 'field.trend', kind: 'switch' },
    ...limitFields<CampaignValues>(),
    { name: 'assets', label: 'field.assets', kind: 'multiPicker', load: loadAssets },
  ];
}

export const createCampaignFields = campaignFields('order.last');
/** The edit form: the order only while the campaign is active (the specification's campaigns part). */
export const editCampaignFields = campaignFields('order.current', (values) => values.isActive);

export const emptyCampaign = (): CampaignValues => ({
  partnerId: null,
  discountPercent: '',
  startDate: '',
  expireDate: '',
  campaignCategoryId: null,
  nameAz: '',
  nameEn: '',
  nameRu: '',
  descriptionAz: '',
  descriptionEn: '',
  descriptionRu: '',
  file: null,
  backgroundFile: null,
  specialOffer: false,
  isPremium: false,
  isTrend: false,
  assets: [],
  order: '',
  isActive: true,
  ...noLimits(),
});

export const campaignValuesOf = (campaign: CampaignDetail): CampaignValues => ({
  partnerId: { id: campaign.partnerId, label: campaign.partnerName },
  discountPercent: String(campaign.discountPercent),
  startDate: dateTimeInputValue(campaign.startDate),
  expireDate: dateTimeInputValue(campaign.expireDate),
  campaignCategoryId: { id: campaign.campaignCategoryId, label: campaign.categoryName },
  nameAz: campaign.nameAz,
  nameEn: campaign.nameEn,
  nameRu: campaign.nameRu,
  descriptionAz: campaign.descriptionAz,
  descriptionEn: campaign.descriptionEn,
  descriptionRu: campaign.descriptionRu,
  file: campaign.filePath,
  backgroundFile: campaign.backgroundFilePath,
  specialOffer: campaign.specialOffer,
  isPremium: campaign.isPremium,
  isTrend: campaign.isTrend,
  assets: (campaign.assetList ?? []).map((asset) => ({ id: asset.id, label: asset.name })),
  order: '',
  isActive: campaign.isActive,
  ...limitValuesOf(campaign),
});

const parts = (values: CampaignValues) => ({
  partnerId: values.partnerId?.id,
  campaignCategoryId: values.campaignCategoryId?.id,
  discountPercent: values.discountPercent.trim().replace(',', '.'),
  startDate: localDateTimeToIso(values.startDate),
  expireDate: localDateTimeToIso(values.expireDate),
  nameAz: values.nameAz.trim(),
  nameEn: values.nameEn.trim(),
  nameRu: values.nameRu.trim(),
  descriptionAz: values.descriptionAz.trim(),
  descriptionEn: values.descriptionEn.trim(),
  descriptionRu: values.descriptionRu.trim(),
  specialOffer: values.specialOffer,
  isPremium: values.isPremium,
  isTrend: values.isTrend,
  ...limitParts(values),
  // Repeated: assets=3&assets=7.
  assets: values.assets.map((asset) => asset.id),
  order: values.order || undefined,
  // Without a new file the server keeps the stored image.
  file: values.file instanceof File ? values.file : undefined,
  backgroundFile: values.backgroundFile instanceof File ? values.backgroundFile : undefined,
});

/** `POST campaign` multipart. */
export const createCampaignForm = (values: CampaignValues): FormData => toFormData(parts(values));

/** `PUT campaign` multipart: as create plus `id`; the order only when the form offered it. */
export const editCampaignForm = (values: CampaignValues, campaign: Pick<CampaignRow, 'id'>): FormData =>
  toFormData({ id: campaign.id, ...parts(values), order: values.isActive ? values.order || undefined : undefined });

export interface NotificationTextValues {
  text: string;
}

export const notificationTextFields: FieldDef<NotificationTextValues>[] = [{ name: 'text', label: 'field.notificationText', kind: 'textarea', rows: 4 }];
export const notificationTextSchema: Schema<NotificationTextValues> = { text: [required(CAMPAIGN_MESSAGES.notificationText)] };

/** The campaign's name as the list shows it, else its Az name. */
export const campaignName = (campaign: Pick<CampaignRow, 'name' | 'nameAz'>) => campaign.name || campaign.nameAz;
