import { useSignals } from '@preact/signals-react/runtime';
import { useRef, useState } from 'react';
import { t } from '../../lib/i18n';
import { currentUser } from '../../lib/session';
import { useColumnChoice, useWidthInRem } from '../ColumnChooser';
import { PageCard } from '../PageCard';
import { SecretShownOnce } from '../SecretShownOnce';
import { ResourceDialogs, type OpenDialog } from './ResourceDialogs';
import { ResourceFilters } from './ResourceFilters';
import { ResourceTable } from './ResourceTable';
import { ResourceToolbar, resourceTotal } from './ResourceToolbar';
import { resourceAccess } from './resourceAccess';
import { resourceWords } from './resourceWords';
import type { ResourceDeclaration, ResourceRow } from './types';
import { useResourceController } from './useResourceController';

/**
 * A whole list screen from a declaration: the headless controller (page, size, sort and filters
 * in the URL, the rows, the selection) rendered by the toolbar, the filters, the table with its
 * row tools, and the dialogs. This component holds only what they share: which dialog is open,
 * whether the filters show, the person's column choice and a failed change's notice. Every change
 * the user makes is confirmed in a toast.
 */
export function ResourcePage<Row extends ResourceRow>({ resource }: { resource: ResourceDeclaration<Row> }) {
  useSignals();
  const access = resourceAccess(resource, currentUser.value);
  const words = resourceWords(resource);
  const controller = useResourceController<Row>(resource);
  // A filter modal starts closed; the panel starts open when the link carries filters.
  const [filterOpen, setFilterOpen] = useState(controller.filtered && !resource.filterDialog);
  const [dialog, setDialog] = useState<OpenDialog<Row>>(null);
  // Each screen's shown and hidden columns, per person (the screen's title names it: two screens may share an API path).
  const [columnChoice, setColumnChoice] = useColumnChoice(resource.title);
  const tableBox = useRef<HTMLDivElement>(null);
  const cardRem = useWidthInRem(tableBox);
  const [notice, setNotice] = useState<string | null>(null);
  const closeDialog = () => setDialog(null);
  // A change made anywhere on the screen replaces the notice of one that failed before.
  const mutated = (confirmation?: string) => {
    setNotice(null);
    controller.mutated(confirmation);
    resource.afterChange?.();
  };

  return (
    <PageCard
      title={t(resource.title)}
      intro={resourceTotal(controller.list, words)}
      actions={
        <ResourceToolbar
          resource={resource}
          access={access}
          controller={controller}
          filterOpen={filterOpen}
          onToggleFilters={() => setFilterOpen((open) => !open)}
          columnChoice={columnChoice}
          onColumnChoice={setColumnChoice}
          cardRem={cardRem}
          openDialog={setDialog}
          mutated={mutated}
        />
      }
    >
      <ResourceFilters resource={resource} controller={controller} open={filterOpen} onClose={() => setFilterOpen(false)} />
      <ResourceTable
        resource={resource}
        access={access}
        words={words}
        controller={controller}
        columnChoice={columnChoice}
        boxRef={tableBox}
        notice={notice}
        onFailure={setNotice}
        openDialog={setDialog}
        mutated={mutated}
      />
      <ResourceDialogs
        resource={resource}
        access={access}
        words={words}
        controller={controller}
        dialog={dialog}
        onClose={closeDialog}
        mutated={mutated}
      />
      {resource.secretShownOnce && <SecretShownOnce {...resource.secretShownOnce} />}
    </PageCard>
  );
}
