import { useSignals } from '@preact/signals-react/runtime';
import { useId, useMemo, useState } from 'react';
import { Alert } from '../../components/Alert';
import { Chart } from '../../components/Chart';
import { DataTable, type TableColumn } from '../../components/DataTable';
import { Icon, type IconName } from '../../components/icons';
import { Panel, RemoteContent } from '../../components/Panel';
import { Spinner } from '../../components/Spinner';
import { pickRemote, useRemoteValue, type RemoteValue } from '../../components/useRemoteValue';
import { formatNumber, monthNames, t } from '../../lib/i18n';
import {
  employeesChart,
  formatRating,
  formatShare,
  monthLabel,
  monthsSoFar,
  usageChart,
  yearOptions,
  type AssetEmployees,
  type CampaignAtLimit,
  type CategoryUsage,
  type DashboardSummary,
  type MonthUsage,
  type TopPartner,
  type Verification,
} from './dashboardData';

type Ranked<Row> = Row & { id: number };

/** DataTable keys rows by id: a ranking's rows get their place (1, 2, ...). */
const ranked = <Row,>(rows: Row[]): Ranked<Row>[] => rows.map((row, index) => ({ ...row, id: index + 1 }));

function Figure({ icon, label, value }: { icon: IconName; label: string; value: number }) {
  // A <dl> group holds only its <dt> and <dd>: the icon sits inside the <dt>, placed at the card's left.
  return (
    <div className="relative flex min-h-20 flex-col-reverse justify-center rounded-xl border border-slate-200 bg-surface py-4 pr-5 pl-20 shadow-sm">
      <dt className="text-sm text-slate-600">
        <span className="absolute top-1/2 left-5 -translate-y-1/2 rounded-lg bg-indigo-50 p-3 text-indigo-700" aria-hidden="true">
          <Icon name={icon} className="size-6" />
        </span>
        {label}
      </dt>
      <dd className="text-2xl font-semibold text-slate-900 tabular-nums">{formatNumber(value)}</dd>
    </div>
  );
}

/** The headline figures: total employees, last month's and all usage. */
function Figures({ summary }: { summary: RemoteValue<DashboardSummary> }) {
  useSignals();
  if (summary.status === 'error') return <Alert tone="danger">{t('chart.error', { message: summary.message })}</Alert>;
  if (!summary.data) {
    return (
      <div className="flex justify-center py-6 text-indigo-600">
        <Spinner label={t('app.loading')} className="size-6" />
      </div>
    );
  }
  const data = summary.data;
  const lastMonth = monthLabel(data.lastMonth);
  return (
    <dl className="grid gap-4 sm:grid-cols-3">
      <Figure icon="employees" label={t('dashboard.totalEmployees')} value={data.totalEmployeeCount} />
      <Figure
        icon="usage"
        label={lastMonth ? `${t('dashboard.lastMonthUsage')} (${lastMonth})` : t('dashboard.lastMonthUsage')}
        value={data.lastMonthUsageCount}
      />
      <Figure icon="reports" label={t('dashboard.totalUsage')} value={data.totalUsageCount} />
    </dl>
  );
}

function EmployeesDoughnut({ summary }: { summary: DashboardSummary }) {
  useSignals();
  const active = t('state.active');
  const deactive = t('state.deactive');
  const series = t('dashboard.employeeCount');
  const data = useMemo(() => employeesChart(summary, { active, deactive, series }), [summary, active, deactive, series]);
  return <Chart data={data} caption={t('dashboard.employees')} labelHeader={t('state.label')} height="h-48" />;
}

function UsageHistory() {
  useSignals();
  // The server's years and months are UTC ones (its default year too).
  const thisYear = new Date().getUTCFullYear();
  const [year, setYear] = useState(thisYear);
  const pickerId = useId();
  const history = useRemoteValue<MonthUsage[]>('dashboard/usageHistory', { year });
  // The interface language's short month names ("Jan", "Yan"): the same list until the language changes.
  const months = monthNames('short');
  const series = t('field.usageCount');
  const entries = history.status === 'error' ? undefined : history.data;
  const data = useMemo(() => (entries ? usageChart(entries, months, series, monthsSoFar(year)) : null), [entries, months, series, year]);
  return (
    <Panel
      title={t('dashboard.usageHistory')}
      className="lg:col-span-2"
      actions={
        <div className="flex items-center gap-2 text-sm">
          <label htmlFor={pickerId} className="text-slate-700">
            {t('dashboard.year')}
          </label>
          <select
            id={pickerId}
            className="rounded-md border border-slate-300 bg-surface px-2 py-1 text-sm"
            value={year}
            onChange={(event) => setYear(Number(event.target.value))}
          >
            {yearOptions(thisYear).map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
          {history.status === 'loading' && history.data && <Spinner label={t('app.loading')} className="size-4" />}
        </div>
      }
    >
      <RemoteContent value={history}>
        {() => data && <Chart data={data} caption={t('dashboard.usageHistoryIn', { year })} labelHeader={t('dashboard.month')} />}
      </RemoteContent>
    </Panel>
  );
}

function RankingTable<Row>({ title, value, columns }: { title: string; value: RemoteValue<Row[]>; columns: TableColumn<Ranked<Row>>[] }) {
  return (
    <Panel title={title} flush>
      <RemoteContent value={value} inset>
        {(rows) => <DataTable caption={title} columns={columns} rows={ranked(rows)} status="ready" />}
      </RemoteContent>
    </Panel>
  );
}

const numberCell = 'text-right tabular-nums';

/** Issue 41: this month's share of uses confirmed at the till with a redemption code, and the campaigns at their total limit. */
function VerificationPanel() {
  useSignals();
  const verification = useRemoteValue<Verification>('dashboard/verification');
  const columns: TableColumn<CampaignAtLimit>[] = [
    { key: 'name', header: t('field.campaignName'), render: (row) => row.name, text: (row) => row.name },
    { key: 'partnerName', header: t('field.partnerName'), render: (row) => row.partnerName, text: (row) => row.partnerName },
    {
      key: 'usesCount',
      header: t('field.uses'),
      render: (row) => t('campaigns.usesOf', { count: row.usesCount, limit: row.usageLimitTotal }),
      className: numberCell,
    },
  ];
  return (
    <Panel title={t('dashboard.verification')}>
      <RemoteContent value={verification}>
        {(data) => {
          const share = formatShare(data.verifiedPercent);
          const month = monthLabel(data.month) ?? data.month;
          const more = data.campaignsAtLimitCount - data.campaignsAtLimit.length;
          return (
            <div className="flex flex-col gap-4">
              <dl>
                <dt className="text-sm text-slate-600">{t('dashboard.verifiedShare', { month })}</dt>
                <dd className="text-2xl font-semibold text-slate-900 tabular-nums">{share ?? t('table.noValue')}</dd>
                <dd className="text-sm text-slate-600">
                  {share === null
                    ? t('dashboard.noUsesThisMonth')
                    : t('dashboard.verifiedOf', { verified: formatNumber(data.verifiedCount), total: formatNumber(data.usageCount) })}
                </dd>
              </dl>
              <div>
                <h3 className="mb-2 text-sm font-semibold text-slate-800">{t('dashboard.campaignsAtLimit')}</h3>
                {data.campaignsAtLimit.length === 0 ? (
                  <p className="text-sm text-slate-600">{t('dashboard.noCampaignsAtLimit')}</p>
                ) : (
                  <DataTable caption={t('dashboard.campaignsAtLimit')} columns={columns} rows={data.campaignsAtLimit} status="ready" />
                )}
                {more > 0 && <p className="mt-2 text-sm text-slate-600">{t('dashboard.moreAtLimit', { count: formatNumber(more) })}</p>}
              </div>
            </div>
          );
        }}
      </RemoteContent>
    </Panel>
  );
}

/**
 * The dashboard (the specification's campaigns part, Dashboard): headline figures, the employees
 * doughnut and the monthly usage line, then each table once (docs/decisions.md). Every
 * call is independent: one that fails says `Error: ...` in its own card.
 */
export default function DashboardPage() {
  useSignals();
  const summary = useRemoteValue<DashboardSummary>('dashboard');
  const categories = useRemoteValue<CategoryUsage[]>('dashboard/usageCategories');
  const assetUsage = useRemoteValue<AssetEmployees[]>('dashboard/usageEmployees');
  const assetEmployees = useRemoteValue<AssetEmployees[]>('dashboard/assetEmployees');
  const partners = pickRemote(summary, (data) => data.partners);

  const partnerColumns: TableColumn<Ranked<TopPartner>>[] = [
    { key: 'name', header: t('field.name'), render: (row) => row.name, text: (row) => row.name },
    { key: 'campaignsCount', header: t('field.campaignsCount'), render: (row) => formatNumber(row.campaignsCount), className: numberCell },
    {
      key: 'rating',
      header: t('field.rating'),
      className: numberCell,
      render: (row) => formatRating(row.rating) ?? <span className="text-slate-600">{t('dashboard.noRating')}</span>,
    },
  ];
  const categoryColumns: TableColumn<Ranked<CategoryUsage>>[] = [
    { key: 'categoryName', header: t('field.categoryName'), render: (row) => row.categoryName, text: (row) => row.categoryName },
    { key: 'usageCount', header: t('field.usageCount'), render: (row) => formatNumber(row.usageCount), className: numberCell },
  ];
  const assetName: TableColumn<Ranked<AssetEmployees>> = {
    key: 'assetName',
    header: t('field.assetName'),
    render: (row) => row.assetName,
    text: (row) => row.assetName,
  };
  const employeeCount: TableColumn<Ranked<AssetEmployees>> = {
    key: 'employeeCount',
    header: t('field.employeeCount'),
    render: (row) => formatNumber(row.employeeCount),
    className: numberCell,
  };
  const usageCount: TableColumn<Ranked<AssetEmployees>> = {
    key: 'usageHistoryCount',
    header: t('field.usageHistoryCount'),
    render: (row) => formatNumber(row.usageHistoryCount),
    className: numberCell,
  };

  return (
    <div className="flex flex-col gap-5">
      <h1 className="text-lg font-semibold text-slate-900">{t('menu.dashboard')}</h1>
      <Figures summary={summary} />
      <div className="grid gap-5 lg:grid-cols-3">
        <Panel title={t('dashboard.employees')}>
          <RemoteContent value={summary}>{(data) => <EmployeesDoughnut summary={data} />}</RemoteContent>
        </Panel>
        <UsageHistory />
      </div>
      <div className="grid gap-5 lg:grid-cols-2">
        <RankingTable title={t('dashboard.topMerchants')} value={partners} columns={partnerColumns} />
        <RankingTable title={t('dashboard.topCategories')} value={categories} columns={categoryColumns} />
        <RankingTable title={t('dashboard.assetUsage')} value={assetUsage} columns={[assetName, employeeCount, usageCount]} />
        <RankingTable title={t('dashboard.assetEmployees')} value={assetEmployees} columns={[assetName, employeeCount]} />
        <VerificationPanel />
      </div>
    </div>
  );
}
