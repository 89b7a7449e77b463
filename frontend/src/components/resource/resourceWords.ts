import { atSentenceStart, t } from '../../lib/i18n';
import type { ResourceDeclaration, ResourceRow } from './types';

/** How a list screen names its rows in the interface language: totals, confirmations and toasts. */
export interface ResourceWords<Row> {
  /** The noun for one row ("partner"). */
  one: string;
  /** The noun after a number: its plural form for the count in the interface language ("5 сотрудников"). */
  nounFor: (count: number) => string;
  /** "26 users". */
  countOf: (count: number) => string;
  /** "Partner Bravo": the noun, then a name, opening the toast's sentence. */
  named: (name: string) => string;
  /** "Partner Bravo" for a row, by its `rowLabel`. */
  nameOf: (row: Row) => string;
}

/** Read while rendering (the language is a signal): the component calling it calls `useSignals()`. */
export function resourceWords<Row extends ResourceRow>(resource: ResourceDeclaration<Row>): ResourceWords<Row> {
  const one = t(resource.nouns.one);
  const nounFor = (count: number) => (count === 1 ? one : t(resource.nouns.many, { count }));
  const named = (name: string) => atSentenceStart(`${one} ${name}`.trim());
  return {
    one,
    nounFor,
    countOf: (count) => t('table.total', { count, noun: nounFor(count) }),
    named,
    nameOf: (row) => named(resource.rowLabel(row)),
  };
}
