import { lookups } from '../../components/form/lookups';
import { flagFilter } from '../../components/resource/flagFilter';
import type { ResourceDeclaration, RowChoice } from '../../components/resource/types';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/dates';
import { t, type MessageKey } from '../../lib/i18n';
import { Role } from '../../lib/roles';
import type { Schema } from '../../lib/contract';

/** A row as the server's document declares it (`UsageRow`). */
export type UsageRow = Schema<'UsageRow'>;

export const USAGE_STATUSES: { value: string; label: MessageKey }[] = [
  { value: '0', label: 'usage.status.confirmed' },
  { value: '1', label: 'usage.status.cancelled' },
];

const statusLabel = (status: number) => t(USAGE_STATUSES.find((option) => option.value === String(status))?.label ?? 'usage.status.confirmed');

/** Who used what, and when: names the record in accessible names, the delete question and toasts. */
export const usageLabel = (usage: UsageRow) => `${usage.employeeEmail}, ${usage.campaignName}, ${formatDateTime(usage.createdDate)}`;

/** The drawer's status select (`PUT usageHistory/updateStatus {id, status}`), for Admins and Users. */
const statusChoice: RowChoice<UsageRow> = {
  value: (usage) => String(usage.status),
  options: USAGE_STATUSES,
  label: 'usage.statusOf',
  call: (usage, value) => api.put('usageHistory/updateStatus', { id: usage.id, status: Number(value) }),
  announce: (usage, value) => t('usage.statusSet', { name: usageLabel(usage), status: statusLabel(Number(value)) }),
};

/**
 * Usage History (the specification's campaigns part): every use of a campaign by an employee, as the
 * names stood then. No row selection; the filter picks an asset, a partner or
 * an employee from the server; the drawer shows every field and lets editors
 * confirm or cancel the use; Verified says the partner confirmed it at the
 * till with a redemption code, Branch where (both filtered and exported); Admins delete; the export asks for a date range
 * and is saved as UsageHistory.xlsx (docs/decisions.md).
 */
export const usageHistoryResource: ResourceDeclaration<UsageRow> = {
  title: 'menu.usageHistory',
  basePath: 'usageHistory',
  rowLabel: usageLabel,
  nouns: { one: 'noun.usageRecord', many: 'noun.usageRecords' },
  columns: [
    { field: 'employeeEmail', kind: 'email', label: 'field.employeeEmail', width: 22, wrapHeader: true },
    { field: 'assetName', label: 'field.assetName', width: 12, priority: 2 },
    { field: 'partnerName', label: 'field.partnerName', width: 12 },
    { field: 'campaignName', label: 'field.campaignName', width: 18 },
    { field: 'merchantCategory', label: 'field.merchantCategory', width: 10, priority: 3, wrapHeader: true },
    { field: 'createdDate', label: 'field.usedAt', kind: 'dateTime' },
    { field: 'discountPercent', label: 'field.discountPercent', render: (usage) => `${usage.discountPercent}%`, priority: 2, wrapHeader: true },
    { field: 'verified', label: 'field.verified', kind: 'yesNo', priority: 3, wrapHeader: true },
    { field: 'branchName', label: 'field.branch', render: (usage) => usage.branchName ?? '', width: 14, priority: 3, wrapHeader: true },
  ],
  toolsLabel: 'table.rowActions',
  filters: [
    { name: 'assetId', param: 'AssetId', label: 'field.asset', kind: 'picker', picker: lookups.asset },
    { name: 'partnerId', param: 'PartnerId', label: 'field.partner', kind: 'picker', picker: lookups.partner },
    { name: 'employeeId', param: 'EmployeeId', label: 'field.employee', kind: 'picker', picker: lookups.employee },
    { name: 'campaignName', param: 'CampaignName', label: 'field.campaignName' },
    { name: 'startDate', param: 'StartDate', label: 'field.startDate', kind: 'date', dayBound: 'start' },
    { name: 'endDate', param: 'EndDate', label: 'field.endDate', kind: 'date', dayBound: 'end', notBefore: 'startDate' },
    flagFilter('verified', 'Verified', 'field.verified', 'button.yes', 'button.no'),
  ],
  view: {
    title: 'usage.details',
    items: [
      { label: 'field.employeeEmail', value: (usage) => usage.employeeEmail },
      { label: 'field.assetName', value: (usage) => usage.assetName },
      { label: 'field.partnerName', value: (usage) => usage.partnerName },
      { label: 'field.campaignName', value: (usage) => usage.campaignName },
      { label: 'field.merchantCategory', value: (usage) => usage.merchantCategory },
      { label: 'field.usedAt', value: (usage) => formatDateTime(usage.createdDate) },
      { label: 'field.discountPercent', value: (usage) => `${usage.discountPercent}%` },
      { label: 'field.rating', value: (usage) => (usage.rating ? t('usage.rating', { rating: usage.rating }) : t('usage.noRating')) },
      { label: 'field.verified', value: (usage) => t(usage.verified ? 'button.yes' : 'button.no') },
      { label: 'field.branch', value: (usage) => usage.branchName ?? t('usage.noBranch') },
      { label: 'field.status', value: (usage) => statusLabel(usage.status), choice: statusChoice },
    ],
  },
  // DELETE usageHistory (an id list) is for Admins only, one row at a time: the spec's list has no selection.
  remove: [Role.Admin],
  selectable: false,
  exportSpec: {
    fileName: 'UsageHistory.xlsx',
    path: 'usageHistory/export/admin',
    dateRange: { startParam: 'startDate', endParam: 'endDate' },
  },
};
