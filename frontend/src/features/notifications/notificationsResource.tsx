import { DetailImage } from '../../components/Drawer';
import type { ResourceDeclaration } from '../../components/resource/types';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/dates';
import { t } from '../../lib/i18n';
import {
  createNotificationFields,
  createNotificationForm,
  createNotificationSchema,
  editNotificationFields,
  editNotificationForm,
  editNotificationSchema,
  emptyNotification,
  notificationValuesOf,
  NotificationType,
  type NotificationRow,
  type NotificationValues,
} from './schemas';

const typeText = (type: number) => t(type === NotificationType.Category ? 'notificationType.category' : 'notificationType.campaign');

/**
 * Notifications (the specification's campaigns part, Notifications): image, header and text with
 * view, edit and delete; the filter by header; create with a type and the
 * category or campaign it is about; edit of header, text and image.
 */
export const notificationsResource: ResourceDeclaration<NotificationRow> = {
  title: 'notifications.title',
  basePath: 'notification',
  rowLabel: (notification) => notification.header,
  nouns: { one: 'noun.notification', many: 'noun.notifications' },
  columns: [
    { field: 'filePath', label: 'field.image', kind: 'image', priority: 2 },
    { field: 'header', label: 'field.header', width: 16 },
    { field: 'text', label: 'field.text', width: 30 },
  ],
  toolsLabel: 'table.rowActions',
  filters: [{ name: 'header', param: 'Header', label: 'field.header' }],
  create: {
    title: 'notifications.create',
    fields: createNotificationFields,
    schema: createNotificationSchema,
    nameOf: (values: NotificationValues) => values.header,
    initialValues: emptyNotification,
    submit: (values: NotificationValues) => api.post('notification', createNotificationForm(values)),
  },
  edit: {
    title: 'notifications.edit',
    fields: editNotificationFields,
    schema: editNotificationSchema,
    nameOf: (values: NotificationValues) => values.header,
    initialValues: notificationValuesOf,
    submit: (values: NotificationValues, notification: NotificationRow) => api.put('notification', editNotificationForm(values, notification)),
  },
  view: {
    title: 'notifications.details',
    items: [
      { label: 'field.image', value: (notification) => <DetailImage path={notification.filePath} alt={notification.header} /> },
      { label: 'field.header', value: (notification) => notification.header },
      { label: 'field.text', value: (notification) => <span className="whitespace-pre-line">{notification.text}</span> },
      { label: 'field.type', value: (notification) => typeText(notification.type) },
      { label: 'field.target', value: (notification) => notification.targetName ?? t('table.noValue') },
      { label: 'field.createdAt', value: (notification) => formatDateTime(notification.createdAt) },
    ],
  },
  remove: true,
  exportSpec: { fileName: 'Notifications.xlsx', path: 'Notification/export' },
};
