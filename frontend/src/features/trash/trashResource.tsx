import { resourceLabel } from '../../components/activity/activityText';
import type { BulkAction, ResourceDeclaration } from '../../components/resource/types';
import { TRASH_KINDS } from '../../generated/recordKinds';
import { api } from '../../lib/api';
import type { Schema } from '../../lib/contract';
import { formatDateTime } from '../../lib/dates';
import { t } from '../../lib/i18n';

/** One deleted record as the server's document declares it (`TrashRow`). */
export type TrashRow = Schema<'TrashRow'>;

/** "Campaign Summer sale": the kind, then the record's name as it was when deleted. */
export const trashRowLabel = (row: TrashRow) => `${resourceLabel(row.kind)} ${row.label}`;

/** One record named in a sentence: its kind (a common noun there, by the language's rules) and its name. */
const named = (row: TrashRow) => ({ kind: resourceLabel(row.kind), name: row.label });

const restoreAction: BulkAction<TrashRow> = {
  id: 'restore',
  label: 'trash.restore',
  icon: 'restore',
  tone: 'primary',
  question: ({ count, row }) => (row ? t('trash.restoreOne', named(row)) : t('trash.restoreMany', { count })),
  detail: 'trash.restoreDetail',
  call: (ids) => api.put('trash/restore', { id: ids }),
  done: ({ count, row }) => (row ? t('trash.restoredOne', named(row)) : t('trash.restoredMany', { count })),
};

const purgeAction: BulkAction<TrashRow> = {
  id: 'purge',
  label: 'trash.purge',
  icon: 'trash',
  tone: 'danger',
  question: ({ count, row }) => (row ? t('trash.purgeOne', named(row)) : t('trash.purgeMany', { count })),
  detail: 'trash.purgeDetail',
  call: (ids) => api.delete('trash', { id: ids }),
  done: ({ count, row }) => (row ? t('trash.purgedOne', named(row)) : t('trash.purgedMany', { count })),
};

/**
 * The trash (issue 23, Admins, under Settings): every deleted record of every
 * kind, newest delete first, with who deleted it and when; filtered by kind,
 * name and dates. Selected records (or one from its tools) are restored as they
 * were or deleted for good; the server refuses either with the reason, shown in
 * the confirmation. What stays past the retention is deleted by the server.
 */
export const trashResource: ResourceDeclaration<TrashRow> = {
  title: 'menu.trash',
  basePath: 'trash',
  rowLabel: trashRowLabel,
  nouns: { one: 'noun.deletedRecord', many: 'noun.deletedRecords' },
  columns: [
    { field: 'kind', label: 'field.recordType', sortable: false, width: 12, render: (row) => resourceLabel(row.kind) },
    { field: 'label', label: 'field.name', sortable: false, width: 28 },
    { field: 'recordId', label: 'field.recordId', sortable: false, priority: 3 },
    { field: 'deletedAt', label: 'field.deletedAt', kind: 'dateTime', sortable: false },
    { field: 'deletedBy', label: 'field.deletedBy', sortable: false, width: 16, priority: 2, render: (row) => row.deletedBy ?? t('trash.unknown') },
  ],
  filters: [
    {
      name: 'kind',
      param: 'Kind',
      label: 'field.recordType',
      kind: 'select',
      // The kinds the server's declarations give the trash, in their order: a new one needs only its label.
      options: TRASH_KINDS.map((kind) => ({ value: kind, label: `activity.resource.${kind}` as const })),
    },
    { name: 'label', param: 'Label', label: 'field.name', kind: 'text' },
    { name: 'startDate', param: 'StartDate', label: 'field.startDate', kind: 'date', dayBound: 'start' },
    { name: 'endDate', param: 'EndDate', label: 'field.endDate', kind: 'date', dayBound: 'end', notBefore: 'startDate' },
  ],
  view: {
    title: 'trash.details',
    items: [
      { label: 'field.recordType', value: (row) => resourceLabel(row.kind) },
      { label: 'field.name', value: (row) => row.label },
      { label: 'field.recordId', value: (row) => String(row.recordId) },
      { label: 'field.deletedAt', value: (row) => formatDateTime(row.deletedAt) },
      { label: 'field.deletedBy', value: (row) => row.deletedBy ?? t('trash.unknown') },
    ],
  },
  // The record's own history is on its own screen's drawer; a trash row is not a recorded resource.
  history: false,
  bulkActions: [restoreAction, purgeAction],
};
