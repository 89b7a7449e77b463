import { stateColors, type ChartData } from '../../components/Chart';
import type { Schema } from '../../lib/contract';
import type { MessageKey } from '../../lib/i18n';

export type ReportKind = 'asset' | 'partner' | 'campaign' | 'employee';

/** The four tabs, in the spec's order, with their calls (`GET report/{kind}`). */
export const reportKinds: readonly { kind: ReportKind; label: MessageKey }[] = [
  { kind: 'asset', label: 'reports.asset' },
  { kind: 'partner', label: 'reports.partner' },
  { kind: 'campaign', label: 'reports.campaign' },
  { kind: 'employee', label: 'reports.employee' },
];

export type RecordState = Schema<'RecordState'>;

export type ReportName = Schema<'ReportName'>;

/**
 * `GET report/{kind}` (docs/decisions.md, "Dashboard and reports"): one page
 * of names (`totalCount` of them match the search) and the kind's counts over
 * its whole table, whatever the search (`allCount` is the badge).
 */
export type ReportPage = Schema<'ReportPage'>;

export const stateLabels: Record<RecordState, MessageKey> = {
  active: 'state.active',
  deactive: 'state.deactive',
  deleted: 'state.deleted',
};

/** The pie of active, deactive and deleted records. */
export function statesChart(page: Pick<ReportPage, 'activeCount' | 'deactiveCount' | 'deletedCount'>, labels: Record<RecordState, string>, seriesLabel: string): ChartData {
  return {
    kind: 'pie',
    labels: [labels.active, labels.deactive, labels.deleted],
    values: [page.activeCount, page.deactiveCount, page.deletedCount],
    seriesLabel,
    colors: stateColors,
  };
}

/** Both spreadsheets of the export button, in the order they are downloaded. */
export const reportExports = [
  { path: 'report/export/counts', fileName: 'Reports-count.xlsx' },
  { path: 'report/export', fileName: 'Reports-name.xlsx' },
] as const;
