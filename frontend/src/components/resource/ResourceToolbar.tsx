import { useSignals } from '@preact/signals-react/runtime';
import { Fragment, type ReactNode } from 'react';
import type { ColumnChoice } from '../../lib/columnChoice';
import { t } from '../../lib/i18n';
import { Button } from '../Button';
import { ColumnChooser } from '../ColumnChooser';
import { ExportControl } from '../ExportControl';
import { Icon } from '../icons';
import { showToast } from '../Toast';
import { choosableColumn } from './columnCells';
import type { OpenDialog } from './ResourceDialogs';
import type { ResourceAccess } from './resourceAccess';
import type { ResourceWords } from './resourceWords';
import type { ResourceDeclaration, ResourceRow } from './types';
import type { ListState } from './useRemoteData';
import type { ResourceController } from './useResourceController';

/** The total under the title ("26 users"), 'Loading…' before the first count; none while the list has failed (the table says why). */
export function resourceTotal<Row>(list: ListState<Row>, words: ResourceWords<Row>): ReactNode | undefined {
  if (list.status === 'error') return undefined;
  return <span role="status">{list.counted ? words.countOf(list.totalCount) : t('table.loading')}</span>;
}

/**
 * The list's toolbar beside its title: the filter switch with the number of applied filters, the
 * Columns button, the screen's own actions, Export and Create; while rows are selected, 'N
 * selected' with the bulk actions, Delete and Clear selection instead.
 */
export function ResourceToolbar<Row extends ResourceRow>({
  resource,
  access,
  controller,
  filterOpen,
  onToggleFilters,
  columnChoice,
  onColumnChoice,
  cardRem,
  openDialog,
  mutated,
}: {
  resource: ResourceDeclaration<Row>;
  access: ResourceAccess<Row>;
  controller: ResourceController<Row>;
  filterOpen: boolean;
  onToggleFilters: () => void;
  columnChoice: ColumnChoice;
  onColumnChoice: (next: ColumnChoice) => void;
  /** The table's width in rem: which columns it has room for. */
  cardRem: number;
  openDialog: (dialog: OpenDialog<Row>) => void;
  mutated: (confirmation?: string) => void;
}) {
  useSignals();
  const { selected, setSelected } = controller;
  const hasFilters = (resource.filters ?? []).length > 0;
  const appliedCount = Object.values(controller.query.filters).filter(Boolean).length;

  return (
    <div role="group" aria-label={t('table.actions')} className="flex flex-wrap items-center gap-2">
      {selected.size > 0 ? (
        <>
          <span className="text-sm font-medium text-slate-700">{t('table.selected', { count: selected.size })}</span>
          {access.bulkActions.map((action) => (
            <Button key={action.id} variant={action.tone} onClick={() => openDialog({ kind: 'bulk', actionId: action.id, ids: [...selected] })}>
              <Icon name={action.icon} className="size-4" />
              {t(action.label)}
            </Button>
          ))}
          {access.canRemove && (
            <Button variant="danger" onClick={() => openDialog({ kind: 'delete', ids: [...selected] })}>
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
          {hasFilters && (
            <Button
              variant="ghost"
              aria-expanded={resource.filterDialog ? undefined : filterOpen}
              aria-haspopup={resource.filterDialog ? 'dialog' : undefined}
              onClick={onToggleFilters}
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
          <ColumnChooser columns={resource.columns.map(choosableColumn)} choice={columnChoice} cardRem={cardRem} onChange={onColumnChoice} />
          {(resource.actions ?? [])
            .filter((action) => access.writable || !action.editorsOnly)
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
          {resource.create && access.writable && (
            <Button variant="primary" onClick={() => openDialog({ kind: 'create' })}>
              <Icon name="plus" className="size-4" />
              {t('button.create')}
            </Button>
          )}
        </>
      )}
    </div>
  );
}
