import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { Chart } from '../../components/Chart';
import { DataTable, type TableColumn } from '../../components/DataTable';
import { TextInput } from '../../components/form/inputs';
import { Icon } from '../../components/icons';
import { PageCard } from '../../components/PageCard';
import { Pagination } from '../../components/Pagination';
import { Panel, RemoteContent } from '../../components/Panel';
import { showToast } from '../../components/Toast';
import { useResourceController } from '../../components/resource/useResourceController';
import type { RemoteValue } from '../../components/useRemoteValue';
import { errorMessage } from '../../lib/api';
import { downloadFile, saveBlob } from '../../lib/download';
import { t } from '../../lib/i18n';
import { needsPagination } from '../../lib/listQuery';
import { canWrite } from '../../lib/roles';
import { currentUser } from '../../lib/session';
import { reportExports, reportKinds, stateLabels, statesChart, type RecordState, type ReportKind, type ReportName, type ReportPage } from './reportsData';

/** The spec's 500 ms pause before a typed search is sent. */
const SEARCH_PAUSE_MS = 500;

const stateTone: Record<RecordState, string> = {
  active: 'bg-emerald-50 text-emerald-800',
  deactive: 'bg-amber-50 text-amber-800',
  deleted: 'bg-red-50 text-red-800',
};

function StateBadge({ state }: { state: RecordState }) {
  useSignals();
  return (
    <span className={`inline-flex min-w-17 justify-center rounded-full px-2 py-0.5 text-xs font-medium ${stateTone[state] ?? stateTone.active}`}>
      {t(stateLabels[state] ?? 'state.active')}
    </span>
  );
}

/** The tab's one filter: the typed name. */
const NAME_FILTER = [{ name: 'Name', param: 'Name', label: 'reports.search' as const }];

/** One kind's names (searched, paged, sortable by name) beside its pie of states and the total badge. */
function ReportTab({ kind, label }: { kind: ReportKind; label: string }) {
  useSignals();
  const searchId = useId();
  // The list machinery of every screen, kept in the tab (four tabs share one URL).
  const source = useMemo(() => ({ basePath: `report/${kind}`, filterPath: `report/${kind}`, filters: NAME_FILTER, state: 'local' as const }), [kind]);
  const names = useResourceController<ReportName, ReportPage>(source);
  const [typed, setTyped] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const report = names.list;
  const answer = report.status === 'error' ? undefined : (report.answer ?? undefined);
  // The pie's view of the same call: the last counts stay on show while the next page loads.
  const reportValue: RemoteValue<ReportPage> =
    report.status === 'error'
      ? { status: 'error', message: report.error ?? '' }
      : answer && report.status === 'ready'
        ? { status: 'ready', data: answer }
        : { status: 'loading', data: answer };

  const { applyFilters } = names;
  const typeSearch = (value: string) => {
    setTyped(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => applyFilters({ Name: value.trim() }), SEARCH_PAUSE_MS);
  };

  const [activeLabel, deactiveLabel, deletedLabel] = [t('state.active'), t('state.deactive'), t('state.deleted')];
  const seriesLabel = t('reports.names', { kind: label });
  const [activeCount, deactiveCount, deletedCount] = [answer?.activeCount, answer?.deactiveCount, answer?.deletedCount];
  // A new page of names leaves the pie as it is: it is drawn again only when a count changes.
  const chart = useMemo(
    () =>
      activeCount === undefined || deactiveCount === undefined || deletedCount === undefined
        ? null
        : statesChart(
            { activeCount, deactiveCount, deletedCount },
            { active: activeLabel, deactive: deactiveLabel, deleted: deletedLabel },
            seriesLabel,
          ),
    [activeCount, deactiveCount, deletedCount, activeLabel, deactiveLabel, deletedLabel, seriesLabel],
  );

  const columns: TableColumn<ReportName>[] = [
    { key: 'name', header: t('field.name'), sortField: 'name', render: (row) => row.name, text: (row) => row.name },
    { key: 'state', header: t('state.label'), render: (row) => <StateBadge state={row.state} /> },
  ];
  const countsTitle = t('reports.counts', { kind: label });
  const namesTitle = t('reports.names', { kind: label });

  return (
    <div className="grid gap-5 lg:grid-cols-5">
      <Panel
        title={countsTitle}
        className="lg:col-span-2 lg:self-start"
        actions={
          answer && (
            <span className="rounded-full bg-indigo-50 px-3 py-1 text-sm font-semibold text-indigo-800">
              {t('reports.total', { count: answer.allCount })}
            </span>
          )
        }
      >
        <RemoteContent value={reportValue}>{() => chart && <Chart data={chart} caption={countsTitle} labelHeader={t('state.label')} height="h-52" />}</RemoteContent>
      </Panel>
      <Panel title={namesTitle} className="lg:col-span-3" flush>
        <div role="search" aria-label={namesTitle} className="border-b border-slate-200 px-4 py-3 sm:px-5">
          <label htmlFor={searchId} className="mb-1 block text-sm font-medium text-slate-700">
            {t('reports.search')}
          </label>
          <TextInput id={searchId} type="search" placeholder={t('reports.searchPlaceholder')} value={typed} onChange={(event) => typeSearch(event.target.value)} />
        </div>
        <DataTable
          caption={namesTitle}
          columns={columns}
          rows={report.rows}
          status={report.status}
          sort={{ field: names.query.sort, ascending: names.query.ascending }}
          onSort={names.sortBy}
        />
        {answer && needsPagination(report.totalCount, names.query.size) && (
          <Pagination page={names.query.page} size={names.query.size} total={report.totalCount} onPage={names.goToPage} onSize={names.setPageSize} />
        )}
      </Panel>
    </div>
  );
}

/** Downloads both spreadsheets, one after the other, through the API client; a failure is said beside the button. */
function ReportsExport() {
  useSignals();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const start = async () => {
    setError(null);
    try {
      for (const file of reportExports) {
        setBusy(file.fileName);
        const downloaded = await downloadFile(file.path, {});
        saveBlob(downloaded.blob, downloaded.fileName ?? file.fileName);
      }
      showToast(t('reports.exported'));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="flex flex-wrap items-center gap-3">
      {busy && (
        <span role="status" className="text-xs text-slate-600">
          {t('reports.exporting', { file: busy })}
        </span>
      )}
      {error && <Alert tone="danger">{error}</Alert>}
      <Button onClick={() => void start()} busy={busy !== null}>
        <Icon name="download" className="size-4" />
        {t('reports.export')}
      </Button>
    </div>
  );
}

/**
 * Reports (the specification's campaigns part, Reports): a tab per kind, each its names and a pie
 * of states; the export for Admin and User.
 */
export default function ReportsPage() {
  useSignals();
  const mayExport = canWrite(currentUser.value?.roleId);
  return (
    <PageCard title={t('menu.reports')} actions={mayExport ? <ReportsExport /> : undefined}>
      <TabGroup className="px-4 py-4 sm:px-5">
        <TabList aria-label={t('reports.tabs')} className="flex overflow-x-auto border-b border-slate-200 sm:gap-1">
          {reportKinds.map((report) => (
            <Tab
              key={report.kind}
              className="-mb-px shrink-0 border-b-2 border-transparent px-2.5 py-2 text-sm sm:px-4 font-medium text-slate-600 data-hover:text-slate-900 data-selected:border-indigo-600 data-selected:text-indigo-700 focus:outline-none data-focus:outline-2 data-focus:outline-indigo-600"
            >
              {t(report.label)}
            </Tab>
          ))}
        </TabList>
        <TabPanels className="pt-5">
          {reportKinds.map((report) => (
            <TabPanel key={report.kind} className="focus-visible:outline-2 focus-visible:outline-indigo-600">
              <ReportTab kind={report.kind} label={t(report.label)} />
            </TabPanel>
          ))}
        </TabPanels>
      </TabGroup>
    </PageCard>
  );
}
