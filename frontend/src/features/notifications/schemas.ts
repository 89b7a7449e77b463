import type { ImageValue } from '../../components/form/ImagePicker';
import type { FieldDef, PickerLoader, PickerOption } from '../../components/form/types';
import { api } from '../../lib/api';
import { toFormData } from '../../lib/formData';
import { FORM_MESSAGES } from '../../generated/messages';
import { required, type Rule, type Schema } from '../../lib/validation';
import type { Schema as ContractSchema } from '../../lib/contract';

export const NotificationType = { Category: 1, Campaign: 2 } as const;

/** A row as the server's document declares it (`NotificationRow`). */
export type NotificationRow = ContractSchema<'NotificationRow'>;

export interface NotificationValues {
  header: string;
  text: string;
  file: ImageValue;
  /** '' (not chosen), '1' category or '2' campaign: the select's value. */
  type: string;
  categoryId: PickerOption | null;
  campaignId: PickerOption | null;
}

/** The spec's messages, and the server's for the second picker. */
const SERVER = FORM_MESSAGES['POST /api/notification'];
export const NOTIFICATION_MESSAGES = {
  header: SERVER.header.required,
  text: SERVER.text.required,
  type: SERVER.type.required,
  category: SERVER.categoryId.required,
  campaign: SERVER.campaignId.required,
} as const;

/** The second picker is required for the type that shows it. */
const targetOf =
  (type: number, message: string): Rule<NotificationValues> =>
  (value, values) =>
    values.type === String(type) && !value ? message : undefined;

export const createNotificationSchema: Schema<NotificationValues> = {
  header: [required(NOTIFICATION_MESSAGES.header)],
  text: [required(NOTIFICATION_MESSAGES.text)],
  type: [required(NOTIFICATION_MESSAGES.type)],
  categoryId: [targetOf(NotificationType.Category, NOTIFICATION_MESSAGES.category)],
  campaignId: [targetOf(NotificationType.Campaign, NOTIFICATION_MESSAGES.campaign)],
};

export const editNotificationSchema: Schema<NotificationValues> = {
  header: [required(NOTIFICATION_MESSAGES.header)],
  text: [required(NOTIFICATION_MESSAGES.text)],
};

interface Target {
  id: number;
  name: string;
  partnerName?: string;
}

/**
 * Active categories (`GET campaign/notificationCategory`), named in the content
 * language. They are few, so the picker loads them all at once and the typed
 * text narrows them here.
 */
export const loadNotificationCategories: PickerLoader = async (search, _skip, _take, signal) => {
  const page = await api.list<Target>('campaign/notificationCategory', {}, signal);
  const term = search.trim().toLocaleLowerCase();
  const items = page.data.filter((category) => category.name.toLocaleLowerCase().includes(term)).map((category) => ({ id: category.id, label: category.name }));
  return { items, total: items.length };
};

/** Active confirmed campaigns (`GET campaign/notficationCampany`, the spec's spelling), searched by name, 30 a page. */
export const loadNotificationCampaigns: PickerLoader = async (search, skip, take, signal) => {
  const page = await api.list<Target>('campaign/notficationCampany', { Skip: skip, Take: take, name: search.trim() }, signal);
  return { items: page.data.map((campaign) => ({ id: campaign.id, label: campaign.partnerName ? `${campaign.name} · ${campaign.partnerName}` : campaign.name })), total: page.totalCount };
};

const contentFields: FieldDef<NotificationValues>[] = [
  { name: 'header', label: 'field.header', kind: 'text', autoComplete: 'off' },
  { name: 'text', label: 'field.text', kind: 'textarea', rows: 4 },
  { name: 'file', label: 'field.image', kind: 'image' },
];

export const createNotificationFields: FieldDef<NotificationValues>[] = [
  ...contentFields,
  {
    name: 'type',
    label: 'field.type',
    kind: 'select',
    options: [
      { value: '', label: 'notificationType.choose' },
      { value: String(NotificationType.Category), label: 'notificationType.category' },
      { value: String(NotificationType.Campaign), label: 'notificationType.campaign' },
    ],
    // Only the picker of the chosen type travels.
    updates: () => ({ categoryId: null, campaignId: null }),
  },
  {
    name: 'categoryId',
    label: 'field.category',
    kind: 'picker',
    load: loadNotificationCategories,
    visibleWhen: (values) => values.type === String(NotificationType.Category),
  },
  {
    name: 'campaignId',
    label: 'field.campaign',
    kind: 'picker',
    load: loadNotificationCampaigns,
    visibleWhen: (values) => values.type === String(NotificationType.Campaign),
  },
];

export const editNotificationFields = contentFields;

export const emptyNotification = (): NotificationValues => ({ header: '', text: '', file: null, type: '', categoryId: null, campaignId: null });

export const notificationValuesOf = (notification: NotificationRow): NotificationValues => ({
  header: notification.header,
  text: notification.text,
  file: notification.filePath,
  type: String(notification.type),
  categoryId: null,
  campaignId: null,
});

const contentParts = (values: NotificationValues) => ({
  header: values.header.trim(),
  text: values.text.trim(),
  // Optional; without a new file an edit keeps the stored image.
  file: values.file instanceof File ? values.file : undefined,
});

/** `POST notification` multipart: header, text, file, type and the id its type uses. */
export const createNotificationForm = (values: NotificationValues): FormData =>
  toFormData({
    ...contentParts(values),
    type: values.type,
    categoryId: values.type === String(NotificationType.Category) ? values.categoryId?.id : undefined,
    campaignId: values.type === String(NotificationType.Campaign) ? values.campaignId?.id : undefined,
  });

/** `PUT notification` multipart: id, header, text and a new image; without `type` the server keeps the target. */
export const editNotificationForm = (values: NotificationValues, notification: Pick<NotificationRow, 'id'>): FormData =>
  toFormData({ id: notification.id, ...contentParts(values) });
