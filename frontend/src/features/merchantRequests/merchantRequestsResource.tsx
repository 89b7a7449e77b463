import type { ResourceDeclaration } from '../../components/resource/types';
import { imageUrl } from '../../lib/cdn';
import { formatDateTime } from '../../lib/dates';
import { t } from '../../lib/i18n';
import { formatPhone } from '../../lib/phone';
import type { Schema } from '../../lib/contract';

/** A row as the server's document declares it (`MerchantRequestRow`). */
export type MerchantRequestRow = Schema<'MerchantRequestRow'>;

/** The applicant's file as a link that downloads it. */
export function FileLink({ request }: { request: MerchantRequestRow }) {
  if (!request.file) return <span className="text-slate-500">{t('merchantRequests.noFile')}</span>;
  const name = request.file.split('/').pop() ?? request.file;
  return (
    <a
      href={imageUrl(request.file)}
      download={name}
      aria-label={t('merchantRequests.downloadFile', { name: request.fullName })}
      className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      {t('merchantRequests.download')}
    </a>
  );
}

const cityList = (request: MerchantRequestRow) => request.cities?.map((city) => city.cityName).join(', ') ?? request.cityNames ?? '';

/**
 * Requests by Merchant (the specification's campaigns part): businesses applying to become partners.
 * Read-only; the file downloads from its link; `GET apply/export` gives MerchantRequests.xlsx.
 */
export const merchantRequestsResource: ResourceDeclaration<MerchantRequestRow> = {
  title: 'menu.requestsByMerchant',
  basePath: 'apply',
  rowLabel: (request) => `${request.partnerName} (${request.fullName})`,
  nouns: { one: 'noun.merchantRequest', many: 'noun.merchantRequests' },
  columns: [
    { field: 'partnerName', label: 'field.partnerName', width: 16 },
    { field: 'fullName', label: 'field.fullName', width: 16 },
    { field: 'email', kind: 'email', label: 'field.email', width: 24, priority: 2 },
    { field: 'phone', label: 'field.phone', kind: 'phone', priority: 3 },
    { field: 'file', label: 'field.file', sortable: false, render: (request) => <FileLink request={request} /> },
    { field: 'cityNames', label: 'field.cities', sortable: false, width: 16, priority: 2 },
  ],
  toolsLabel: 'table.rowActions',
  filters: [
    { name: 'partnerName', param: 'PartnerName', label: 'field.partnerName' },
    { name: 'fullName', param: 'FullName', label: 'field.fullName' },
    { name: 'email', param: 'Email', label: 'field.email' },
  ],
  view: {
    title: 'merchantRequests.details',
    items: [
      { label: 'field.partnerName', value: (request) => request.partnerName },
      { label: 'field.fullName', value: (request) => request.fullName },
      { label: 'field.email', value: (request) => request.email },
      { label: 'field.phone', value: (request) => formatPhone(request.phone) },
      { label: 'field.file', value: (request) => <FileLink request={request} /> },
      { label: 'field.cities', value: cityList },
      { label: 'field.createdAt', value: (request) => formatDateTime(request.createdAt) },
    ],
  },
  exportSpec: { fileName: 'MerchantRequests.xlsx' },
};
