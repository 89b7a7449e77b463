import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useMemo, useRef } from 'react';
import { t } from '../../lib/i18n';
import { Dialog } from '../Dialog';
import { FilterChips, FilterPanel } from '../FilterPanel';
import type { ResourceDeclaration, ResourceRow } from './types';
import type { ResourceController } from './useResourceController';

/**
 * A list's filters: the panel above the table (or the modal the declaration names), and the
 * applied filters as removable chips with Clear filters. The toolbar's switch opens them.
 */
export function ResourceFilters<Row extends ResourceRow>({
  resource,
  controller,
  open,
  onClose,
}: {
  resource: ResourceDeclaration<Row>;
  controller: ResourceController<Row>;
  open: boolean;
  onClose: () => void;
}) {
  useSignals();
  const filters = useMemo(() => resource.filters ?? [], [resource.filters]);
  const values = controller.query.filters;
  // The filter modal applies a change still pending when it closes, but not when the page itself
  // goes (Back while typing): React runs a removed component's cleanups before its children's.
  const onScreen = useRef(true);
  useEffect(() => {
    onScreen.current = true;
    return () => {
      onScreen.current = false;
    };
  }, []);

  return (
    <>
      {open && filters.length > 0 && !resource.filterDialog && <FilterPanel fields={filters} values={values} onApply={controller.applyFilters} />}
      {resource.filterDialog && filters.length > 0 && (
        <Dialog open={open} onClose={onClose} title={t(resource.filterDialog)}>
          <FilterPanel inDialog fields={filters} values={values} onApply={(next) => onScreen.current && controller.applyFilters(next)} />
        </Dialog>
      )}
      <FilterChips fields={filters} values={values} onRemove={controller.removeFilter} onClear={controller.clearFilters} />
    </>
  );
}
