import { formTool, qrCodeTool, resetAuthenticatorTool } from '../../components/resource/rowTools';
import type { ResourceDeclaration } from '../../components/resource/types';
import { StatusBadge } from '../../components/StatusToggle';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/dates';
import { t } from '../../lib/i18n';
import { formatPhone } from '../../lib/phone';
import {
  adminPasswordFields,
  adminPasswordSchema,
  createHumanResourceFields,
  createHumanResourceSchema,
  detailsPayload,
  editHumanResourceFields,
  editHumanResourceSchema,
  editValuesOf,
  emptyAdminPassword,
  emptyCreateHumanResource,
  type AdminPasswordValues,
  type CreateHumanResourceValues,
  type EditHumanResourceValues,
  type HumanResourceRow,
} from './schemas';

const yesNo = (value: boolean) => (value ? t('button.yes') : t('button.no'));

/**
 * The HR accounts screen (the specification's platform part, HR accounts screen), as a ResourcePage
 * declaration. The spec's note on a column set "labelled for the asset list"
 * means: HR rows under HR headers, which is what these columns are.
 */
export const humanResourcesResource: ResourceDeclaration<HumanResourceRow> = {
  title: 'humanResources.title',
  basePath: 'humanResource',
  rowLabel: (account) => account.fullName,
  nouns: { one: 'noun.hrAccount', many: 'noun.hrAccounts' },
  columns: [
    { field: 'assetName', label: 'field.assetName', width: 16, priority: 2 },
    { field: 'fullName', label: 'field.fullName', width: 18 },
    { field: 'email', kind: 'email', label: 'field.email', width: 28, priority: 2 },
    { field: 'phone', label: 'field.phone', kind: 'phone', priority: 3 },
    { field: 'isActive', label: 'field.status', kind: 'status' },
  ],
  toolsLabel: 'table.rowActions',
  filters: [
    { name: 'assetName', param: 'AssetName', label: 'field.assetName' },
    { name: 'fullName', param: 'HumanResourceFullName', label: 'field.fullName' },
  ],
  create: {
    title: 'humanResources.create',
    fields: createHumanResourceFields,
    schema: createHumanResourceSchema,
    initialValues: emptyCreateHumanResource,
    nameOf: (values: CreateHumanResourceValues) => `${values.firstName} ${values.lastName}`,
    submit: (values: CreateHumanResourceValues) =>
      api.post('humanResource', { ...detailsPayload(values), password: values.password }),
  },
  edit: {
    title: 'humanResources.edit',
    fields: editHumanResourceFields,
    schema: editHumanResourceSchema,
    initialValues: editValuesOf,
    nameOf: (values: EditHumanResourceValues) => `${values.firstName} ${values.lastName}`,
    submit: (values: EditHumanResourceValues, account: HumanResourceRow) => api.put('humanResource', { id: account.id, ...detailsPayload(values) }),
  },
  view: {
    title: 'humanResources.details',
    items: [
      { label: 'field.assetName', value: (account) => account.assetName },
      { label: 'field.firstName', value: (account) => account.firstName },
      { label: 'field.lastName', value: (account) => account.lastName },
      { label: 'field.email', value: (account) => account.email },
      { label: 'field.phone', value: (account) => formatPhone(account.phone) },
      { label: 'field.otpLogin', value: (account) => yesNo(account.isMfaActive) },
      { label: 'field.seeEmployeeId', value: (account) => yesNo(account.isEmployeeSeen) },
      { label: 'field.status', value: (account) => <StatusBadge active={account.isActive} /> },
      { label: 'field.createdAt', value: (account) => formatDateTime(account.createdAt) },
    ],
  },
  remove: true,
  toggle: true,
  tools: [
    formTool<HumanResourceRow, AdminPasswordValues>({
      id: 'change-password',
      label: 'tool.changePassword',
      icon: 'key',
      fields: adminPasswordFields,
      schema: adminPasswordSchema,
      initialValues: emptyAdminPassword,
      submit: (values, account) => api.put('humanResource/changePasswordByAdmin', { id: account.id, password: values.password }),
      confirmation: (account) => t('toast.passwordChanged', { name: account.fullName }),
    }),
    qrCodeTool<HumanResourceRow>({ userId: (account) => account.userId, name: (account) => account.fullName }),
    resetAuthenticatorTool<HumanResourceRow>({ userId: (account) => account.userId, name: (account) => account.fullName }),
  ],
  // Exports ask for the creation-date range (inclusive) and show the download's progress.
  exportSpec: { fileName: 'HumanResources.xlsx', dateRange: { startParam: 'startDate', endParam: 'endDate' } },
};
