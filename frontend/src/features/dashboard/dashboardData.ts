import { chartPalette, type ChartData } from '../../components/Chart';
import type { Schema } from '../../lib/contract';
import { formatMonthYear, formatNumber } from '../../lib/i18n';

/** `GET dashboard` (docs/decisions.md, "Dashboard and reports"). */
export type DashboardSummary = Schema<'Summary'>;

export type TopPartner = Schema<'TopPartner'>;

/** `GET dashboard/usageCategories`. */
export type CategoryUsage = Schema<'CategoryUsage'>;

/** `GET dashboard/usageEmployees` and `GET dashboard/assetEmployees`: the same row, in two orders. */
export type AssetEmployees = Schema<'AssetEmployees'>;

/** `GET dashboard/verification`: this month's share of uses confirmed at the till, the campaigns at their limit. */
export type Verification = Schema<'Verification'>;

export type CampaignAtLimit = Schema<'CampaignAtLimit'>;

/** "37.5%" in the UI language, or null without any use this month. */
export function formatShare(percent: number | null | undefined): string | null {
  if (percent === null || percent === undefined || !Number.isFinite(percent)) return null;
  return `${formatNumber(percent, { fractionDigits: Number.isInteger(percent) ? 0 : 1 })}%`;
}

/** `GET dashboard/usageHistory?year=`. */
export type MonthUsage = Schema<'MonthUsage'>;

/** The doughnut of active versus deactive employees. */
export function employeesChart(summary: DashboardSummary, labels: { active: string; deactive: string; series: string }): ChartData {
  return {
    kind: 'doughnut',
    labels: [labels.active, labels.deactive],
    values: [summary.activeEmployeeCount, summary.deactiveEmployeeCount],
    seriesLabel: labels.series,
    colors: [chartPalette.emerald, chartPalette.amber],
  };
}

/**
 * The line of the year's twelve months (`months` names them, January first). Each entry lands on its own month; a
 * month the answer leaves out (or an entry outside 1–12) counts as none. Only
 * the first `monthsSoFar` months have happened: the rest have no point (not a
 * zero), so this year's line ends at the current month.
 */
export function usageChart(entries: MonthUsage[], months: readonly string[], seriesLabel: string, monthsSoFar = 12): ChartData {
  const values: (number | null)[] = Array.from({ length: 12 }, (_, index) => (index < monthsSoFar ? 0 : null));
  for (const entry of entries) {
    if (Number.isInteger(entry.month) && entry.month >= 1 && entry.month <= Math.min(12, monthsSoFar)) values[entry.month - 1] = entry.usageCount;
  }
  return { kind: 'line', labels: [...months], values, seriesLabel, colors: [chartPalette.indigo] };
}

/**
 * How many months of `year` have begun by `now`: all twelve of a past year, none of a future one. Counted in UTC,
 * as the server counts the months it groups uses by: in Baku the first hours of a month are still the last UTC
 * month, whose figure is not yet final.
 */
export function monthsSoFar(year: number, now: Date = new Date()): number {
  if (year < now.getUTCFullYear()) return 12;
  return year === now.getUTCFullYear() ? now.getUTCMonth() + 1 : 0;
}

/** The years the picker offers: this one first, then the nine before it. */
export function yearOptions(thisYear: number): number[] {
  return Array.from({ length: 10 }, (_, index) => thisYear - index);
}

/** "2026-10" → "October 2026" in the UI language; null for anything else. */
export function monthLabel(yearMonth: string | undefined): string | null {
  const match = /^(\d{4})-(\d{2})$/.exec(yearMonth ?? '');
  if (!match) return null;
  const month = Number(match[2]);
  if (month < 1 || month > 12) return null;
  return formatMonthYear(Number(match[1]), month);
}

/** A rating with two decimals, as the server rounds it ("4.25", "3.00"), so a column of them lines up, or null when the partner has none. */
export function formatRating(rating: number | null | undefined): string | null {
  if (rating === null || rating === undefined || !Number.isFinite(rating)) return null;
  return formatNumber(rating, { fractionDigits: 2 });
}
