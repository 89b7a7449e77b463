import { flagFilter } from '../../components/resource/flagFilter';
import type { ResourceDeclaration } from '../../components/resource/types';
import { StatusBadge } from '../../components/StatusToggle';
import { api } from '../../lib/api';
import { COMPLAINT_REASON_IDS, complaintReasonKey, complaintReasonName } from '../../lib/complaintReasons';
import { formatDateTime } from '../../lib/dates';
import { t } from '../../lib/i18n';
import { formatPhone } from '../../lib/phone';
import { refreshUnreadComplaints } from './unreadComplaints';
import type { Schema } from '../../lib/contract';

/** A row as the server's document declares it (`ComplaintRow`). */
export type ComplaintRow = Schema<'ComplaintRow'>;

/** The spec's cut: the first 4 words followed by ' ...' (a shorter text stays whole). */
export function shortDescription(description: string): string {
  const words = description.trim().split(/\s+/).filter(Boolean);
  return words.length > 4 ? `${words.slice(0, 4).join(' ')} ...` : words.join(' ');
}

const readWords = () => ({ on: t('complaints.read'), off: t('complaints.unread') });

/** The reason in the interface language, by its id (the server's name is in the content language). */
const reasonOf = (complaint: ComplaintRow) => complaintReasonName(complaint.reasonId, complaint.reasonName);

/**
 * Complaints (the specification's campaigns part): read-only but for the read flag, which Call
 * Center may set too (`PUT complaint {id, status}`); Read/Unread and Reason
 * filters, and the side menu counts the unread ones. Reasons are named from
 * the panel's catalogue by id, in any interface language.
 */
export const complaintsResource: ResourceDeclaration<ComplaintRow> = {
  title: 'menu.complaints',
  basePath: 'complaint',
  rowLabel: (complaint) => complaint.fullName,
  nouns: { one: 'noun.complaint', many: 'noun.complaints' },
  columns: [
    { field: 'fullName', label: 'field.fullName', width: 14 },
    { field: 'email', kind: 'email', label: 'field.email', width: 20, priority: 2 },
    { field: 'phone', label: 'field.phone', kind: 'phone', priority: 3 },
    { field: 'reasonName', label: 'field.reason', value: reasonOf, width: 14, priority: 2 },
    {
      field: 'description',
      label: 'field.description',
      sortable: false,
      priority: 2,
      render: (complaint) => (
        <span className="block max-w-44 truncate" title={shortDescription(complaint.description)}>
          {shortDescription(complaint.description)}
        </span>
      ),
    },
    {
      field: 'isRead',
      label: 'field.status',
      kind: 'status',
      render: (complaint) => <StatusBadge active={complaint.isRead} words={readWords()} />,
      switch: {
        isOn: (complaint) => complaint.isRead,
        label: 'complaints.markRead',
        on: 'complaints.read',
        off: 'complaints.unread',
        everyone: true,
        call: async (complaint, next) => {
          await api.put('complaint', { id: complaint.id, status: next });
          await refreshUnreadComplaints();
        },
        announce: (complaint, next) => t(next ? 'complaints.markedRead' : 'complaints.markedUnread', { name: complaint.fullName }),
      },
    },
    { field: 'recordDate', label: 'field.recordDate', kind: 'dateTime', priority: 3 },
  ],
  toolsLabel: 'table.rowActions',
  filters: [
    flagFilter('isRead', 'IsRead', 'field.status', 'complaints.read', 'complaints.unread'),
    {
      name: 'reasonId',
      param: 'ReasonId',
      label: 'field.reason',
      kind: 'select',
      options: COMPLAINT_REASON_IDS.map((id) => ({ value: String(id), label: complaintReasonKey(id) })),
    },
    { name: 'fullName', param: 'FullName', label: 'field.fullName' },
  ],
  view: {
    title: 'complaints.details',
    items: [
      { label: 'field.fullName', value: (complaint) => complaint.fullName },
      { label: 'field.email', value: (complaint) => complaint.email },
      { label: 'field.phone', value: (complaint) => formatPhone(complaint.phone) },
      { label: 'field.reason', value: reasonOf },
      { label: 'field.description', value: (complaint) => <p className="whitespace-pre-line">{complaint.description}</p> },
      { label: 'field.status', value: (complaint) => <StatusBadge active={complaint.isRead} words={readWords()} /> },
      { label: 'field.recordDate', value: (complaint) => formatDateTime(complaint.recordDate) },
    ],
  },
};
