/**
 * The columns a person chose to show or hide on one list, remembered per user per screen in this
 * browser. A column the person never touched follows the width rule (its priority against the
 * card's width); a choice, once made, holds at every width.
 */

/** A column's stated visibility by its key: true shown, false hidden; a key absent follows the width. */
export type ColumnChoice = Readonly<Record<string, boolean>>;

const STORAGE_PREFIX = 'perkdesk-columns';

export function columnChoiceKey(userId: number, screen: string): string {
  return `${STORAGE_PREFIX}:${userId}:${screen}`;
}

/** The stored choice; anything unreadable (another version's value, a hand edit) counts as none. */
export function loadColumnChoice(userId: number, screen: string): ColumnChoice {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(columnChoiceKey(userId, screen)) ?? '{}');
    if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return {};
    return Object.fromEntries(Object.entries(stored).filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean'));
  } catch {
    return {};
  }
}

export function saveColumnChoice(userId: number, screen: string, choice: ColumnChoice): void {
  const key = columnChoiceKey(userId, screen);
  if (Object.keys(choice).length === 0) localStorage.removeItem(key);
  else localStorage.setItem(key, JSON.stringify(choice));
}

/**
 * The card width (in rem) from which a column of each priority shows by default: 1 always, 2 from
 * a 40rem card, 3 from a 58rem one (a 1280 px window beside the full side menu). DataTable's
 * container-query classes spell the same widths out.
 */
export const PRIORITY_MIN_REM = { 1: 0, 2: 40, 3: 58 } as const;
export type ColumnPriority = keyof typeof PRIORITY_MIN_REM;

export function shownByWidth(priority: ColumnPriority | undefined, cardRem: number): boolean {
  return cardRem >= PRIORITY_MIN_REM[priority ?? 1];
}

/** Whether the column shows: the person's choice, else the width rule. */
export function isColumnShown(choice: ColumnChoice, key: string, priority: ColumnPriority | undefined, cardRem: number): boolean {
  return choice[key] ?? shownByWidth(priority, cardRem);
}
