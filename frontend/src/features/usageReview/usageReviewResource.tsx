import { lookups } from '../../components/form/lookups';
import { confirmTool } from '../../components/resource/confirmTool';
import { formTool } from '../../components/resource/rowTools';
import type { ResourceDeclaration } from '../../components/resource/types';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/dates';
import { t, type MessageKey } from '../../lib/i18n';
import { rulesAction } from './ReviewRules';
import { REVIEW_STATE, voidFields, voidSchema, type UsageReviewRow, type VoidValues } from './schemas';

export const REVIEW_REASONS: { value: string; label: MessageKey }[] = [
  { value: 'manyUses', label: 'review.reason.manyUses' },
  { value: 'twoPartners', label: 'review.reason.twoPartners' },
];

export const REVIEW_STATES: { value: string; label: MessageKey }[] = [
  { value: String(REVIEW_STATE.open), label: 'review.state.open' },
  { value: String(REVIEW_STATE.cleared), label: 'review.state.cleared' },
  { value: String(REVIEW_STATE.voided), label: 'review.state.voided' },
];

/** The rule in the interface language, with what it counted ("4 uses within 10 minutes"). */
export function reasonText(review: Pick<UsageReviewRow, 'reason' | 'counted' | 'windowMinutes'>): string {
  return review.reason === 'twoPartners'
    ? t('review.reasonOf.twoPartners', { minutes: review.windowMinutes })
    : t('review.reasonOf.manyUses', { uses: review.counted, minutes: review.windowMinutes });
}

export const stateText = (review: Pick<UsageReviewRow, 'state'>) =>
  t(REVIEW_STATES.find((state) => state.value === String(review.state))?.label ?? 'review.state.open');

/** Who used what, and when: names the row in accessible names, questions and toasts. */
export const reviewLabel = (review: UsageReviewRow) => `${review.employeeEmail}, ${review.partnerName}, ${formatDateTime(review.usedDate)}`;

const isOpen = (review: UsageReviewRow) => review.state === REVIEW_STATE.open;

/** Clear: the use is fine (`POST usageReview/{id}/clear`), after a question naming it. */
const clearTool = {
  ...confirmTool<UsageReviewRow>({
    id: 'clear',
    label: 'review.clear',
    icon: 'check',
    question: (review) => t('review.clearQuestion', { name: reviewLabel(review) }),
    run: (review) => api.post(`usageReview/${review.id}/clear`),
    confirmation: (review) => t('review.cleared', { name: reviewLabel(review) }),
  }),
  isAvailable: isOpen,
};

/** Void: the use leaves every count and waits in the trash, with the reason asked for here. */
const voidTool = {
  ...formTool<UsageReviewRow, VoidValues>({
    id: 'void',
    label: 'review.void',
    icon: 'trash',
    fields: voidFields,
    schema: voidSchema,
    initialValues: () => ({ reason: '' }),
    submit: (values, review) => api.post(`usageReview/${review.id}/void`, { reason: values.reason.trim() }),
    confirmation: (review) => t('review.voided', { name: reviewLabel(review) }),
    submitLabel: 'review.void',
  }),
  isAvailable: isOpen,
};

/**
 * Usage review (issue 41): the uses the rules flagged as they were written, each with the rule it
 * broke. Admins and Users clear a flag or void the use with a reason; Call Center reads. Filters by
 * state (open first), reason, employee, partner and the use's dates; the export has the list's
 * columns and filters. The toolbar's Review rules shows the thresholds, and lets an Admin change
 * them.
 */
export const usageReviewResource: ResourceDeclaration<UsageReviewRow> = {
  title: 'menu.usageReview',
  basePath: 'usageReview',
  rowLabel: reviewLabel,
  nouns: { one: 'noun.flaggedUse', many: 'noun.flaggedUses' },
  columns: [
    { field: 'employeeEmail', kind: 'email', label: 'field.employeeEmail', width: 22, wrapHeader: true },
    { field: 'partnerName', label: 'field.partnerName', width: 10 },
    { field: 'campaignName', label: 'field.campaignName', width: 10, priority: 3, sortable: false },
    { field: 'usedDate', label: 'field.usedAt', kind: 'dateTime' },
    { field: 'reason', label: 'field.reason', value: reasonText, width: 40 },
    { field: 'state', label: 'field.reviewState', value: stateText, width: 8, priority: 2 },
  ],
  toolsLabel: 'table.rowActions',
  filters: [
    { name: 'state', param: 'State', label: 'field.reviewState', kind: 'select', options: REVIEW_STATES },
    { name: 'reason', param: 'Reason', label: 'field.reason', kind: 'select', options: REVIEW_REASONS },
    { name: 'employeeEmail', param: 'EmployeeEmail', label: 'field.employeeEmail' },
    { name: 'partnerId', param: 'PartnerId', label: 'field.partner', kind: 'picker', picker: lookups.partner },
    { name: 'startDate', param: 'StartDate', label: 'field.startDate', kind: 'date', dayBound: 'start' },
    { name: 'endDate', param: 'EndDate', label: 'field.endDate', kind: 'date', dayBound: 'end', notBefore: 'startDate' },
  ],
  view: {
    title: 'review.details',
    items: [
      { label: 'field.employeeEmail', value: (review) => review.employeeEmail },
      { label: 'field.partnerName', value: (review) => review.partnerName },
      { label: 'field.campaignName', value: (review) => review.campaignName },
      { label: 'field.usedAt', value: (review) => formatDateTime(review.usedDate) },
      { label: 'field.reason', value: reasonText },
      { label: 'field.reviewState', value: stateText },
      { label: 'field.decidedBy', value: (review) => review.decidedBy ?? t('table.noValue') },
      { label: 'field.decidedAt', value: (review) => (review.decidedAt ? formatDateTime(review.decidedAt) : t('table.noValue')) },
      { label: 'field.voidReason', value: (review) => review.voidReason ?? t('table.noValue') },
    ],
  },
  selectable: false,
  tools: [clearTool, voidTool],
  actions: [rulesAction],
  exportSpec: { fileName: 'UsageReview.xlsx' },
};
