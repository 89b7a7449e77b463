import {
  ACTIONS,
  ACTOR_KINDS,
  actionLabel,
  actorKindLabel,
  actorText,
  changesSummary,
  recordText,
  type ActivityRow,
} from '../../components/activity/activityText';
import { ChangeList } from '../../components/activity/ChangeList';
import { serverPicker } from '../../components/form/listPicker';
import type { ResourceDeclaration } from '../../components/resource/types';
import { HISTORY_KINDS } from '../../generated/recordKinds';
import { formatDateTime } from '../../lib/dates';
import { t } from '../../lib/i18n';

export type { ActivityRow };

/** Staff users to filter by, named by e-mail (`GET user/filter`, searched by e-mail). */
const userPicker = serverPicker('user/filter', 'user', { label: 'email', search: 'Email' });

/**
 * The activity log (issue 23, Admins, under Settings): every change the back
 * office, the inbound API, the command line and the imports made, newest
 * first, with who made it. Filtered by user, kind of writer, record type,
 * action and dates; exported as Activity.xlsx. Entries are read-only: no
 * create, edit, delete or selection.
 */
export const activityResource: ResourceDeclaration<ActivityRow> = {
  title: 'menu.activity',
  basePath: 'activity',
  rowLabel: (entry) => `${actionLabel(entry.action)}, ${recordText(entry)}, ${formatDateTime(entry.at)}`,
  nouns: { one: 'noun.activityEntry', many: 'noun.activityEntries' },
  columns: [
    { field: 'at', label: 'field.at', kind: 'dateTime', sortable: false },
    { field: 'actorName', label: 'field.who', sortable: false, width: 18, render: actorText },
    { field: 'action', label: 'field.action', sortable: false, width: 14, render: (entry) => actionLabel(entry.action) },
    { field: 'resource', label: 'field.record', sortable: false, width: 16, render: recordText },
    { field: 'changes', label: 'field.changes', sortable: false, width: 20, priority: 2, render: (entry) => changesSummary(entry.changes) },
  ],
  filters: [
    { name: 'userId', param: 'UserId', label: 'field.user', kind: 'picker', picker: userPicker },
    {
      name: 'actorKind',
      param: 'ActorKind',
      label: 'field.whoKind',
      kind: 'select',
      options: ACTOR_KINDS.map((kind) => ({ value: kind, label: `activity.kind.${kind}` as const })),
    },
    {
      name: 'resource',
      param: 'Resource',
      label: 'field.recordType',
      kind: 'select',
      // The kinds the server's declarations give the log, in their order: a new one needs only its label.
      options: HISTORY_KINDS.map((resource) => ({ value: resource, label: `activity.resource.${resource}` as const })),
    },
    {
      name: 'action',
      param: 'Action',
      label: 'field.action',
      kind: 'select',
      options: ACTIONS.map((action) => ({ value: action, label: `activity.action.${action}` as const })),
    },
    { name: 'startDate', param: 'StartDate', label: 'field.startDate', kind: 'date', dayBound: 'start' },
    { name: 'endDate', param: 'EndDate', label: 'field.endDate', kind: 'date', dayBound: 'end', notBefore: 'startDate' },
  ],
  view: {
    title: 'activity.details',
    items: [
      { label: 'field.at', value: (entry) => formatDateTime(entry.at) },
      { label: 'field.who', value: actorText },
      { label: 'field.whoKind', value: (entry) => actorKindLabel(entry.actorKind) },
      { label: 'field.action', value: (entry) => actionLabel(entry.action) },
      { label: 'field.record', value: recordText },
    ],
    after: (entry) =>
      entry.changes ? (
        <section aria-label={t('field.changes')}>
          <h3 className="text-sm font-medium text-slate-500">{t('field.changes')}</h3>
          <ChangeList changes={entry.changes} />
        </section>
      ) : null,
  },
  history: false,
  selectable: false,
  exportSpec: { fileName: 'Activity.xlsx' },
};
