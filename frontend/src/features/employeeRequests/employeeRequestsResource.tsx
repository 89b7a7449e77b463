import type { ResourceDeclaration } from '../../components/resource/types';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/dates';
import { t, type MessageKey } from '../../lib/i18n';
import type { Schema } from '../../lib/contract';

/** A row as the server's document declares it (`WishListRow`). */
export type EmployeeRequestRow = Schema<'WishListRow'>;

export const REQUEST_STATUSES: { value: string; label: MessageKey }[] = [
  { value: '0', label: 'requests.status.new' },
  { value: '1', label: 'requests.status.inReview' },
  { value: '2', label: 'requests.status.done' },
];

const statusLabel = (status: number) => t(REQUEST_STATUSES.find((option) => option.value === String(status))?.label ?? 'requests.status.new');

/** The asset filter's choices: the assets by name (`GET asset`, the first 100: client organisations are few). */
async function assetChoices(): Promise<{ value: string; label: string }[]> {
  const page = await api.list<{ id: number; name: string }>('asset', { Skip: 0, Take: 100, SortField: 'name', OrderBy: true });
  return page.data.map((asset) => ({ value: String(asset.id), label: asset.name }));
}

/**
 * Requests by Employee (the specification's campaigns part, `wishList`): employees' wishes for new
 * partners or campaigns. Read-only but for the status, which the staff set
 * from the row (`PUT wishList/updateStatus`), so handled requests show as such.
 */
export const employeeRequestsResource: ResourceDeclaration<EmployeeRequestRow> = {
  title: 'menu.requestsByEmployee',
  basePath: 'wishList',
  rowLabel: (request) => request.employeeFullName,
  nouns: { one: 'noun.employeeRequest', many: 'noun.employeeRequests' },
  columns: [
    { field: 'employeeFullName', label: 'field.employeeFullName', width: 16 },
    { field: 'assetName', label: 'field.assetName', width: 14, priority: 2 },
    { field: 'text', label: 'field.text', width: 28 },
    { field: 'requestDate', label: 'field.requestDate', kind: 'dateTime', priority: 3 },
    {
      field: 'status',
      label: 'field.status',
      render: (request) => statusLabel(request.status),
      choice: {
        value: (request) => String(request.status),
        options: REQUEST_STATUSES,
        label: 'requests.statusOf',
        call: (request, value) => api.put('wishList/updateStatus', { id: request.id, status: Number(value) }),
        announce: (request, value) => t('requests.statusSet', { name: request.employeeFullName, status: statusLabel(Number(value)) }),
      },
    },
  ],
  toolsLabel: 'table.rowActions',
  filters: [
    { name: 'employeeFullName', param: 'EmployeeFullName', label: 'field.employeeFullName' },
    { name: 'assetId', param: 'AssetId', label: 'field.assetName', kind: 'select', loadOptions: assetChoices },
    { name: 'text', param: 'Text', label: 'field.text' },
    { name: 'requestDate', param: 'RequestDate', label: 'field.requestDate', kind: 'date' },
  ],
  view: {
    title: 'requests.details',
    items: [
      { label: 'field.employeeFullName', value: (request) => request.employeeFullName },
      { label: 'field.email', value: (request) => request.employeeEmail ?? '' },
      { label: 'field.assetName', value: (request) => request.assetName },
      { label: 'field.text', value: (request) => <p className="whitespace-pre-line">{request.text}</p> },
      { label: 'field.requestDate', value: (request) => formatDateTime(request.requestDate) },
      { label: 'field.status', value: (request) => statusLabel(request.status) },
    ],
  },
  exportSpec: { fileName: 'WishLists.xlsx' },
};
