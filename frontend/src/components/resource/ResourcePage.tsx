import { useSignals } from '@preact/signals-react/runtime';
import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { Fragment, useEffect, useMemo, useReducer, useRef, useState, type ReactNode } from 'react';
import { api, errorMessage } from '../../lib/api';
import { formatDate, formatDateTime } from '../../lib/dates';
import { atSentenceStart, t } from '../../lib/i18n';
import { needsPagination } from '../../lib/listQuery';
import { formatPhone } from '../../lib/phone';
import { canWrite } from '../../lib/roles';
import { currentUser } from '../../lib/session';
import { HistoryPanel } from '../activity/HistoryPanel';
import { Alert } from '../Alert';
import { Button, IconButton } from '../Button';
import { ColumnChooser, chosenColumns, useColumnChoice, useWidthInRem } from '../ColumnChooser';
import { ConfirmDelete } from '../ConfirmDelete';
import { DataTable, type TableColumn } from '../DataTable';
import { Dialog } from '../Dialog';
import { DetailList, Drawer } from '../Drawer';
import { ExportControl } from '../ExportControl';
import { FilterChips, FilterPanel } from '../FilterPanel';
import { FormDialog } from '../FormDialog';
import { Icon } from '../icons';
import { PageCard } from '../PageCard';
import { Pagination } from '../Pagination';
import { SafeImage } from '../SafeImage';
import { Spinner } from '../Spinner';
import { StatusBadge, StatusToggle } from '../StatusToggle';
import { TAB_CLASS } from '../tabs';
import { showToast } from '../Toast';
import { RowChoiceCell, RowSwitchCell } from './RowSwitchCell';
import type { ColumnDef, ResourceDeclaration, ResourceRow } from './types';
import { useRecord } from './useRemoteData';
import { useResourceController } from './useResourceController';

type OpenDialog<Row> =
  | { kind: 'create' }
  | { kind: 'edit'; row: Row }
  | { kind: 'view'; row: Row }
  | { kind: 'delete'; ids: number[] }
  | { kind: 'bulk'; actionId: string; ids: number[] }
  | { kind: 'tool'; toolId: string; row: Row }
  | null;

/** The value a column shows: its `value` of the row, else the field as sent. */
function fieldOf<Row>(column: ColumnDef<Row>, row: Row): unknown {
  return column.value ? column.value(row) : (row as Record<string, unknown>)[column.field];
}

function cellValue<Row>(column: ColumnDef<Row>, row: Row): ReactNode {
  if (column.render) return column.render(row);
  const value = fieldOf(column, row);
  switch (column.kind) {
    case 'image':
      return <SafeImage path={value as string | null} alt="" className="size-8 max-w-none rounded-md object-cover" />;
    case 'phone':
      return formatPhone(value as string);
    case 'date':
      return formatDate(value as string);
    case 'dateTime':
      return formatDateTime(value as string);
    case 'yesNo':
      return value ? t('button.yes') : t('button.no');
    case 'status':
      return <StatusBadge active={Boolean(value)} />;
    default:
      return textOf(value);
  }
}

function textOf(value: unknown): string {
  return value === null || value === undefined || value === '' ? t('table.noValue') : String(value);
}

/**
 * The narrowest width of a column of this kind, at least its widest content (DataTable keeps it
 * with no rows): a phone number, the status switch with its badge, a 32 px picture, a date.
 */
const KIND_MIN_WIDTH: Partial<Record<NonNullable<ColumnDef<unknown>['kind']>, string>> = {
  // A usual address on two lines, broken before its @ ("leyla.quliyeva" over "@azersun.az"), without crowding out the names.
  email: '8rem',
  phone: '8.5rem',
  status: '6.5rem',
  image: '2rem',
  date: '5.5rem',
  dateTime: '8rem',
  yesNo: '2.5rem',
};

/** The row tools' width: each button 2rem, 0.125rem apart. */
const toolsWidth = (count: number) => `${count * 2 + Math.max(0, count - 1) * 0.125}rem`;

/** A plain text column (no render): DataTable cuts it to its share of the width, the full text on hover (an e-mail wraps). */
function isText<Row>(column: ColumnDef<Row>): boolean {
  return !column.render && (column.kind === undefined || column.kind === 'text' || column.kind === 'email');
}

/** "Partner Bravo": the noun for one row, then the row's name, opening the toast's sentence. */
function itemName(noun: string, name: string): string {
  return atSentenceStart(`${noun} ${name}`.trim());
}

/**
 * A whole list screen from a declaration: toolbar (create, export, filter
 * switch with the number of applied filters, or 'N selected' with bulk
 * delete), the applied filters as removable chips, filter panel, table,
 * total and pagination, the detail drawer and the create/edit/delete/tool
 * dialogs. Page, size, sort and filters live in the URL; every change the
 * user makes is confirmed in a toast.
 */
export function ResourcePage<Row extends ResourceRow>({ resource }: { resource: ResourceDeclaration<Row> }) {
  useSignals();
  const user = currentUser.value;
  const writable = canWrite(user?.roleId);
  const filters = useMemo(() => resource.filters ?? [], [resource.filters]);
  const controller = useResourceController<Row>(resource);
  const { query, filtered, list, selected, setSelected, reload, clearFilters, removeFilter } = controller;
  const itemPath = resource.itemPath ?? resource.basePath;
  // The open drawer's record is read again after a change made in it (a status chosen there).
  const [recordToken, reloadRecord] = useReducer((count: number) => count + 1, 0);

  // A filter modal starts closed; the panel starts open when the link carries filters.
  const [filterOpen, setFilterOpen] = useState(filtered && !resource.filterDialog);
  // The filter modal applies a change still pending when it closes, but not when the page itself
  // goes (Back while typing): React runs a removed page's cleanups before its children's.
  const onScreen = useRef(true);
  useEffect(() => {
    onScreen.current = true;
    return () => {
      onScreen.current = false;
    };
  }, []);
  const [dialog, setDialog] = useState<OpenDialog<Row>>(null);
  // Each screen's shown and hidden columns, per person (the screen's title names it: two screens may share an API path).
  const [columnChoice, setColumnChoice] = useColumnChoice(resource.title);
  const tableBox = useRef<HTMLDivElement>(null);
  const cardRem = useWidthInRem(tableBox);
  const [notice, setNotice] = useState<string | null>(null);
  const [shownOnce, setShownOnce] = useState<ReactNode>(null);
  const closeDialog = () => setDialog(null);

  const nouns = { one: t(resource.nouns.one) };
  // The noun after a number: its plural form for the count in the interface language ("5 сотрудников").
  const nounFor = (count: number) => (count === 1 ? nouns.one : t(resource.nouns.many, { count }));
  const nameOfRow = (row: Row) => itemName(nouns.one, resource.rowLabel(row));
  const countOf = (count: number) => t('table.total', { count, noun: nounFor(count) });

  const mutated = (confirmation?: string) => {
    setNotice(null);
    controller.mutated(confirmation);
  };
  const toggleStatus = async (row: Row, isActive: boolean) => {
    try {
      await (resource.toggleCall ? resource.toggleCall(row, isActive) : api.patch(`${itemPath}/active`, { id: row.id, isActive }));
      mutated(t(isActive ? 'toast.activated' : 'toast.deactivated', { item: nameOfRow(row) }));
    } catch (error) {
      setNotice(errorMessage(error));
    }
  };

  const isOwn = (row: Row) => Boolean(user && resource.isOwnAccount?.(row, user));
  const canRemove =
    typeof resource.remove === 'object' ? resource.remove.some((role) => role === user?.roleId) : writable && Boolean(resource.remove);
  const bulkActions = writable ? (resource.bulkActions ?? []) : [];
  const canSelect = (canRemove || bulkActions.length > 0) && resource.selectable !== false;
  const tools = (resource.tools ?? []).filter((tool) => writable || !tool.editorsOnly);
  const columns: TableColumn<Row>[] = resource.columns.map((column) => ({
    key: column.field,
    header: t(column.label),
    sortField: column.kind === 'image' || column.sortable === false ? undefined : (column.sortField ?? column.field),
    priority: column.priority,
    wrapHeader: column.wrapHeader,
    width: column.width,
    // A row's select keeps room for its longest choice ('In review').
    minWidth: column.choice && writable ? '7.5rem' : column.kind ? KIND_MIN_WIDTH[column.kind] : undefined,
    render:
      column.choice && writable
        ? (row) => <RowChoiceCell row={row} spec={column.choice!} rowLabel={resource.rowLabel(row)} onDone={mutated} onFail={setNotice} />
        : column.switch && (writable || column.switch.everyone)
        ? (row) => <RowSwitchCell row={row} spec={column.switch!} rowLabel={resource.rowLabel(row)} onDone={mutated} onFail={setNotice} />
        : column.kind === 'status' && resource.toggle && writable
        ? (row) => (
            <StatusToggle
              active={Boolean(row.isActive)}
              label={`${t('table.toggleStatus')}: ${resource.rowLabel(row)}`}
              disabledReason={isOwn(row) ? t('own.noToggle') : undefined}
              onToggle={(next) => toggleStatus(row, next)}
            />
          )
        : (row) => cellValue(column, row),
    text: isText(column) ? (row: Row) => textOf(fieldOf(column, row)) : undefined,
  }));
  const toolCount =
    (resource.view ? 1 : 0) + (resource.edit && writable ? 1 : 0) + tools.length + bulkActions.length + (canRemove ? 1 : 0);
  // The row tools stay at the right edge whatever columns the person chose.
  const toolsColumn: TableColumn<Row> = {
    key: 'tools',
    header: t(resource.toolsLabel ?? 'table.tools'),
    className: 'text-right',
    minWidth: toolsWidth(toolCount),
    stickyEnd: true,
    render: (row) => (
      <div className="flex justify-end gap-0.5">
        {resource.view && (
          <IconButton label={t('button.view')} onClick={() => setDialog({ kind: 'view', row })}>
            <Icon name="view" className="size-4" />
          </IconButton>
        )}
        {resource.edit && writable && (
          <IconButton label={t('button.edit')} onClick={() => setDialog({ kind: 'edit', row })}>
            <Icon name="edit" className="size-4" />
          </IconButton>
        )}
        {/* A tool this row does not offer keeps its place empty, so each tool sits at the same spot on every row. */}
        {tools.map((tool) =>
          (tool.isAvailable?.(row) ?? true) ? (
            <IconButton key={tool.id} label={t(tool.label)} onClick={() => setDialog({ kind: 'tool', toolId: tool.id, row })}>
              <Icon name={tool.icon} className="size-4" />
            </IconButton>
          ) : (
            <span key={tool.id} aria-hidden="true" data-absent-tool={tool.id} className="inline-block size-8 shrink-0" />
          ),
        )}
        {bulkActions.map((action) => (
          <IconButton
            key={action.id}
            label={t(action.label)}
            onClick={() => setDialog({ kind: 'bulk', actionId: action.id, ids: [row.id] })}
          >
            <Icon name={action.icon} className="size-4" />
          </IconButton>
        ))}
        {canRemove && (
          <IconButton
            label={t('button.delete')}
            disabledReason={isOwn(row) ? t('own.noDelete') : undefined}
            onClick={() => setDialog({ kind: 'delete', ids: [row.id] })}
          >
            <Icon name="trash" className="size-4" />
          </IconButton>
        )}
      </div>
    ),
  };

  const title = t(resource.title);
  const selecting = selected.size > 0;
  const detailPath = dialog?.kind === 'edit' || dialog?.kind === 'view' ? `${itemPath}/${dialog.row.id}` : null;
  const detail = useRecord<Row>(detailPath, recordToken);
  const activeTool = dialog?.kind === 'tool' ? tools.find((tool) => tool.id === dialog.toolId) : undefined;
  const { create, edit } = resource;
  const appliedCount = Object.values(query.filters).filter(Boolean).length;

  // The confirmation names what goes: the row when it is one on this page, else the count.
  const deleting = dialog?.kind === 'delete' ? dialog.ids : [];
  const deletingRow = deleting.length === 1 ? list.rows.find((row) => row.id === deleting[0]) : undefined;
  const deleteQuestion = deletingRow
    ? t('delete.one', { noun: nouns.one, name: resource.rowLabel(deletingRow) })
    : t('delete.many', { count: deleting.length, noun: nounFor(deleting.length) });
  const deletedMessage = deletingRow
    ? t('toast.deleted', { item: nameOfRow(deletingRow) })
    : t('toast.deleted', { item: countOf(deleting.length) });
  // A bulk action's confirmation and toast name the row when it is one on this page, like delete's.
  const bulk = dialog?.kind === 'bulk' ? bulkActions.find((action) => action.id === dialog.actionId) : undefined;
  const bulkIds = dialog?.kind === 'bulk' ? dialog.ids : [];
  const bulkRow = bulkIds.length === 1 ? list.rows.find((row) => row.id === bulkIds[0]) : undefined;
  const bulkTarget = { count: bulkIds.length, name: bulkRow && resource.rowLabel(bulkRow), row: bulkRow };

  return (
    <PageCard
      title={title}
      intro={list.status === 'error' ? undefined : <span role="status">{list.counted ? countOf(list.totalCount) : t('table.loading')}</span>}
      actions={
        <div role="group" aria-label={t('table.actions')} className="flex flex-wrap items-center gap-2">
          {selecting ? (
            <>
              <span className="text-sm font-medium text-slate-700">{t('table.selected', { count: selected.size })}</span>
              {bulkActions.map((action) => (
                <Button key={action.id} variant={action.tone} onClick={() => setDialog({ kind: 'bulk', actionId: action.id, ids: [...selected] })}>
                  <Icon name={action.icon} className="size-4" />
                  {t(action.label)}
                </Button>
              ))}
              {canRemove && (
                <Button variant="danger" onClick={() => setDialog({ kind: 'delete', ids: [...selected] })}>
                  <Icon name="trash" className="size-4" />
                  {t('button.delete')}
                </Button>
              )}
              <Button variant="ghost" onClick={() => setSelected(new Set())}>
                {t('table.clearSelection')}
              </Button>
            </>
          ) : (
            <>
              {filters.length > 0 && (
                <Button
                  variant="ghost"
                  aria-expanded={resource.filterDialog ? undefined : filterOpen}
                  aria-haspopup={resource.filterDialog ? 'dialog' : undefined}
                  onClick={() => setFilterOpen((open) => !open)}
                >
                  <Icon name="filter" className="size-4" />
                  {filterOpen ? t('filter.hide') : t('filter.show')}
                  {appliedCount > 0 && (
                    <span className="rounded-full bg-accent px-1.5 text-xs leading-5 font-semibold text-white">
                      {appliedCount}
                      <span className="sr-only"> {t('filter.activeCount')}</span>
                    </span>
                  )}
                </Button>
              )}
              <ColumnChooser columns={columns} choice={columnChoice} cardRem={cardRem} onChange={setColumnChoice} />
              {(resource.actions ?? [])
                .filter((action) => writable || !action.editorsOnly)
                .map((action) => (
                  <Fragment key={action.id}>{action.render({ onDone: mutated })}</Fragment>
                ))}
              {resource.exportSpec && (
                <ExportControl
                  spec={resource.exportSpec}
                  basePath={resource.basePath}
                  filterQuery={controller.filterQuery}
                  onExported={(fileName) => showToast(t('toast.exported', { file: fileName }))}
                />
              )}
              {resource.create && writable && (
                <Button variant="primary" onClick={() => setDialog({ kind: 'create' })}>
                  <Icon name="plus" className="size-4" />
                  {t('button.create')}
                </Button>
              )}
            </>
          )}
        </div>
      }
    >
      {filterOpen && filters.length > 0 && !resource.filterDialog && (
        <FilterPanel fields={filters} values={query.filters} onApply={controller.applyFilters} />
      )}
      {resource.filterDialog && filters.length > 0 && (
        <Dialog open={filterOpen} onClose={() => setFilterOpen(false)} title={t(resource.filterDialog)}>
          <FilterPanel inDialog fields={filters} values={query.filters} onApply={(values) => onScreen.current && controller.applyFilters(values)} />
        </Dialog>
      )}
      <FilterChips fields={filters} values={query.filters} onRemove={removeFilter} onClear={clearFilters} />
      {notice && (
        <div className="px-4 pt-4">
          <Alert tone="danger">{notice}</Alert>
        </div>
      )}

      <div ref={tableBox}>
        <DataTable
          caption={title}
          columns={[...chosenColumns(columns, columnChoice), toolsColumn]}
          rows={list.rows}
          status={list.status}
          sort={{ field: query.sort, ascending: query.ascending }}
          onSort={controller.sortBy}
          selection={canSelect ? { selected, onChange: setSelected, blockedReason: (row) => (isOwn(row) ? t('own.noDelete') : undefined) } : undefined}
          onRetry={reload}
          emptyAction={filtered && <Button onClick={clearFilters}>{t('filter.clear')}</Button>}
        />
      </div>
      {needsPagination(list.totalCount, query.size) && (
        <Pagination
          page={query.page}
          size={query.size}
          total={list.totalCount}
          onPage={controller.goToPage}
          onSize={controller.setPageSize}
        />
      )}

      {create && (
        <FormDialog
          open={dialog?.kind === 'create'}
          onClose={closeDialog}
          title={t(create.title)}
          fields={create.fields}
          schema={create.schema}
          serverErrorAliases={create.serverErrorAliases}
          size={create.size}
          surface={create.surface}
          initialValues={create.initialValues()}
          submit={create.submit}
          failureField={create.failureField}
          onSuccess={(values, answer) => {
            mutated(create.confirmation?.(values) ?? t('toast.created', { item: itemName(nouns.one, create.nameOf?.(values) ?? '') }));
            if (create.shownOnce) setShownOnce(create.shownOnce(answer, values, () => setShownOnce(null)));
          }}
        />
      )}
      {edit && (
        <FormDialog
          open={dialog?.kind === 'edit'}
          onClose={closeDialog}
          title={t(edit.title)}
          fields={edit.fields}
          schema={edit.schema}
          serverErrorAliases={edit.serverErrorAliases}
          size={edit.size}
          surface={edit.surface}
          initialValues={dialog?.kind === 'edit' && detail.data ? edit.initialValues(detail.data) : null}
          loadError={detail.error}
          failureField={edit.failureField}
          submit={(values) => (dialog?.kind === 'edit' ? edit.submit(values, detail.data ?? dialog.row) : Promise.resolve())}
          onSuccess={(values) =>
            dialog?.kind === 'edit' &&
            mutated(t('toast.saved', { item: itemName(nouns.one, edit.nameOf?.(values) ?? resource.rowLabel(dialog.row)) }))
          }
        />
      )}
      {resource.view && (
        <Drawer open={dialog?.kind === 'view'} onClose={closeDialog} title={t(resource.view.title)}>
          {dialog?.kind === 'view' && (
            <DrawerBody
              spec={resource.view}
              row={detail.data ?? dialog.row}
              rowLabel={resource.rowLabel(detail.data ?? dialog.row)}
              writable={writable}
              history={resource.history === false ? null : { itemPath, id: dialog.row.id, reloadToken: recordToken }}
              loading={!detail.data && !detail.error}
              error={detail.error}
              onChanged={(confirmation) => {
                reloadRecord();
                mutated(confirmation);
              }}
            />
          )}
        </Drawer>
      )}
      {canRemove && (
        <ConfirmDelete
          open={dialog?.kind === 'delete'}
          onClose={closeDialog}
          question={deleteQuestion}
          onConfirm={async () => {
            if (dialog?.kind !== 'delete') return;
            await api.delete(itemPath, { id: dialog.ids });
            setSelected((current) => new Set([...current].filter((id) => !dialog.ids.includes(id))));
            mutated(deletedMessage);
          }}
        />
      )}
      {shownOnce}
      {bulk && (
        <ConfirmDelete
          open
          onClose={closeDialog}
          title={bulk.label}
          question={bulk.question(bulkTarget)}
          detail={bulk.detail}
          tone={bulk.tone}
          onConfirm={async () => {
            await bulk.call(bulkIds);
            setSelected((current) => new Set([...current].filter((id) => !bulkIds.includes(id))));
            mutated(bulk.done(bulkTarget));
          }}
        />
      )}
      {activeTool &&
        dialog?.kind === 'tool' &&
        activeTool.render({ row: dialog.row, onClose: closeDialog, onDone: (confirmation) => mutated(confirmation) })}
    </PageCard>
  );
}

function DrawerBody<Row>({
  spec,
  row,
  rowLabel,
  writable,
  history,
  loading,
  error,
  onChanged,
}: {
  spec: NonNullable<ResourceDeclaration<Row & ResourceRow>['view']>;
  row: Row & ResourceRow;
  rowLabel: string;
  /** Editors get an item's `choice` as a select. */
  writable: boolean;
  /** The record's History tab beside its details, unless the screen has none. */
  history: { itemPath: string; id: number; reloadToken: number } | null;
  loading: boolean;
  error: string | null;
  /** After a choice made in the drawer: the record and the list are read again. */
  onChanged: (confirmation: string) => void;
}) {
  useSignals();
  const [failure, setFailure] = useState<string | null>(null);
  const value = (item: NonNullable<typeof spec.items>[number]) =>
    item.choice && writable ? (
      <RowChoiceCell
        row={row}
        spec={item.choice}
        rowLabel={rowLabel}
        onFail={setFailure}
        onDone={(confirmation) => {
          setFailure(null);
          onChanged(confirmation);
        }}
      />
    ) : (
      item.value(row)
    );
  const details = (
    <div className="space-y-4">
      {loading && <Spinner label={t('app.loading')} className="size-4" />}
      {error && <Alert tone="danger">{error}</Alert>}
      {failure && <Alert tone="danger">{failure}</Alert>}
      {spec.render ? spec.render(row) : <DetailList items={(spec.items ?? []).map((item) => ({ label: t(item.label), value: value(item) }))} />}
      {spec.after?.(row)}
    </div>
  );
  if (!history) return details;
  return (
    <TabGroup>
      <TabList className="mb-4 flex gap-1 border-b border-slate-200">
        <Tab className={TAB_CLASS}>{t('history.detailsTab')}</Tab>
        <Tab className={TAB_CLASS}>{t('history.tab')}</Tab>
      </TabList>
      <TabPanels>
        <TabPanel className="focus:outline-none">{details}</TabPanel>
        {/* Loaded when first opened: most drawers are read for their details. */}
        <TabPanel className="focus:outline-none" unmount>
          <HistoryPanel itemPath={history.itemPath} id={history.id} reloadToken={history.reloadToken} />
        </TabPanel>
      </TabPanels>
    </TabGroup>
  );
}
