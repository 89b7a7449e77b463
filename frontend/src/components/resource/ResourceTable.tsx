import { useSignals } from '@preact/signals-react/runtime';
import type { RefObject } from 'react';
import { api, errorMessage } from '../../lib/api';
import type { ColumnChoice } from '../../lib/columnChoice';
import { t } from '../../lib/i18n';
import { needsPagination } from '../../lib/listQuery';
import { Alert } from '../Alert';
import { Button } from '../Button';
import { chosenColumns } from '../ColumnChooser';
import { DataTable, type TableColumn } from '../DataTable';
import { Pagination } from '../Pagination';
import { StatusToggle } from '../StatusToggle';
import { cellValue, choosableColumn, fieldOf, isText, KIND_MIN_WIDTH, textOf } from './columnCells';
import type { OpenDialog } from './ResourceDialogs';
import { ResourceRowTools, rowToolCount, rowToolsWidth } from './ResourceRowTools';
import type { ResourceAccess } from './resourceAccess';
import type { ResourceWords } from './resourceWords';
import { RowChoiceCell, RowSwitchCell } from './RowSwitchCell';
import type { ResourceDeclaration, ResourceRow } from './types';
import type { ResourceController } from './useResourceController';

/**
 * The list's table from its declaration: the columns the person chose (each cell as its kind
 * shows it, a switch or select where editors may change it), the row tools at the right edge,
 * the selection, a failed change's notice above it, and the pagination below.
 */
export function ResourceTable<Row extends ResourceRow>({
  resource,
  access,
  words,
  controller,
  columnChoice,
  boxRef,
  notice,
  onFailure,
  openDialog,
  mutated,
}: {
  resource: ResourceDeclaration<Row>;
  access: ResourceAccess<Row>;
  words: ResourceWords<Row>;
  controller: ResourceController<Row>;
  columnChoice: ColumnChoice;
  /** The box whose width decides which columns fit (the Columns button reads it too). */
  boxRef: RefObject<HTMLDivElement | null>;
  /** A change made in the table that failed (a switch, a select), shown above it. */
  notice: string | null;
  onFailure: (message: string) => void;
  openDialog: (dialog: OpenDialog<Row>) => void;
  mutated: (confirmation?: string) => void;
}) {
  useSignals();
  const { query, filtered, list, selected, setSelected } = controller;
  const { writable, isOwn } = access;
  const itemPath = resource.itemPath ?? resource.basePath;

  const toggleStatus = async (row: Row, isActive: boolean) => {
    try {
      await (resource.toggleCall ? resource.toggleCall(row, isActive) : api.patch(`${itemPath}/active`, { id: row.id, isActive }));
      mutated(t(isActive ? 'toast.activated' : 'toast.deactivated', { item: words.nameOf(row) }));
    } catch (error) {
      onFailure(errorMessage(error));
    }
  };

  const columns: TableColumn<Row>[] = resource.columns.map((column) => ({
    ...choosableColumn(column),
    sortField: column.kind === 'image' || column.sortable === false ? undefined : (column.sortField ?? column.field),
    wrapHeader: column.wrapHeader,
    width: column.width,
    // A row's select keeps room for its longest choice ('In review').
    minWidth: column.choice && writable ? '7.5rem' : column.kind ? KIND_MIN_WIDTH[column.kind] : undefined,
    render:
      column.choice && writable
        ? (row) => <RowChoiceCell row={row} spec={column.choice!} rowLabel={resource.rowLabel(row)} onDone={mutated} onFail={onFailure} />
        : column.switch && (writable || column.switch.everyone)
        ? (row) => <RowSwitchCell row={row} spec={column.switch!} rowLabel={resource.rowLabel(row)} onDone={mutated} onFail={onFailure} />
        : column.kind === 'status' && resource.toggle && writable
        ? (row) => (
            <StatusToggle
              active={resource.activeOf ? resource.activeOf(row) : Boolean(row.isActive)}
              label={`${t('table.toggleStatus')}: ${resource.rowLabel(row)}`}
              disabledReason={isOwn(row) ? t('own.noToggle') : undefined}
              onToggle={(next) => toggleStatus(row, next)}
              badge={column.render?.(row)}
            />
          )
        : (row) => cellValue(column, row),
    text: isText(column) ? (row: Row) => textOf(fieldOf(column, row)) : undefined,
  }));
  // The row tools stay at the right edge whatever columns the person chose.
  const toolsColumn: TableColumn<Row> = {
    key: 'tools',
    header: t(resource.toolsLabel ?? 'table.tools'),
    className: 'text-right',
    minWidth: rowToolsWidth(rowToolCount(resource, access)),
    stickyEnd: true,
    render: (row) => <ResourceRowTools row={row} resource={resource} access={access} openDialog={openDialog} />,
  };

  return (
    <>
      {notice && (
        <div className="px-4 pt-4">
          <Alert tone="danger">{notice}</Alert>
        </div>
      )}
      <div ref={boxRef}>
        <DataTable
          caption={t(resource.title)}
          columns={[...chosenColumns(columns, columnChoice), toolsColumn]}
          rows={list.rows}
          status={list.status}
          sort={{ field: query.sort, ascending: query.ascending }}
          onSort={controller.sortBy}
          selection={
            access.canSelect ? { selected, onChange: setSelected, blockedReason: (row) => (isOwn(row) ? t('own.noDelete') : undefined) } : undefined
          }
          onRetry={controller.reload}
          emptyAction={filtered && <Button onClick={controller.clearFilters}>{t('filter.clear')}</Button>}
        />
      </div>
      {needsPagination(list.totalCount, query.size) && (
        <Pagination page={query.page} size={query.size} total={list.totalCount} onPage={controller.goToPage} onSize={controller.setPageSize} />
      )}
    </>
  );
}
