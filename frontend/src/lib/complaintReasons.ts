import { en } from './i18n/en';
import { t, type MessageKey } from './i18n';

/**
 * The reasons an employee gives for a complaint (docs/decisions.md: 1 Discount not honoured, 2 Wrong
 * discount amount, 3 Staff behaviour, 4 App problem, 5 Other). They are system words: the panel
 * names them from its own catalogue, in any of its eight languages, by id.
 */
export const COMPLAINT_REASON_IDS = [1, 2, 3, 4, 5] as const;

export const complaintReasonKey = (id: (typeof COMPLAINT_REASON_IDS)[number]) => `complaints.reason.${id}` as const;

/** A reason's name in the interface language; a reason the catalogue does not know yet keeps the name the server sent. */
export function complaintReasonName(id: number, sent?: string | null): string {
  const key = `complaints.reason.${id}`;
  return key in en ? t(key as MessageKey) : (sent ?? String(id));
}
