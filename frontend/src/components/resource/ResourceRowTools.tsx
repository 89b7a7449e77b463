import { useSignals } from '@preact/signals-react/runtime';
import { t } from '../../lib/i18n';
import { IconButton } from '../Button';
import { Icon } from '../icons';
import type { OpenDialog } from './ResourceDialogs';
import type { ResourceAccess } from './resourceAccess';
import type { ResourceDeclaration, ResourceRow } from './types';

/** How many tools each row has: the tools column keeps room for them all. */
export function rowToolCount<Row extends ResourceRow>(resource: ResourceDeclaration<Row>, access: ResourceAccess<Row>): number {
  return (
    (resource.view ? 1 : 0) +
    (resource.edit && access.writable ? 1 : 0) +
    access.tools.length +
    access.bulkActions.length +
    (access.canRemove ? 1 : 0)
  );
}

/** The row tools' width: each button 2rem, 0.125rem apart. */
export const rowToolsWidth = (count: number) => `${count * 2 + Math.max(0, count - 1) * 0.125}rem`;

/** One row's tools: View, Edit, the declared tools, the bulk actions for this row alone, and Delete. */
export function ResourceRowTools<Row extends ResourceRow>({
  row,
  resource,
  access,
  openDialog,
}: {
  row: Row;
  resource: ResourceDeclaration<Row>;
  access: ResourceAccess<Row>;
  openDialog: (dialog: OpenDialog<Row>) => void;
}) {
  useSignals();
  return (
    <div className="flex justify-end gap-0.5">
      {resource.view && (
        <IconButton label={t('button.view')} onClick={() => openDialog({ kind: 'view', row })}>
          <Icon name="view" className="size-4" />
        </IconButton>
      )}
      {resource.edit && access.writable && (
        <IconButton label={t('button.edit')} onClick={() => openDialog({ kind: 'edit', row })}>
          <Icon name="edit" className="size-4" />
        </IconButton>
      )}
      {/* A tool this row does not offer keeps its place empty, so each tool sits at the same spot on every row. */}
      {access.tools.map((tool) =>
        (tool.isAvailable?.(row) ?? true) ? (
          <IconButton key={tool.id} label={t(tool.label)} onClick={() => openDialog({ kind: 'tool', toolId: tool.id, row })}>
            <Icon name={tool.icon} className="size-4" />
          </IconButton>
        ) : (
          <span key={tool.id} aria-hidden="true" data-absent-tool={tool.id} className="inline-block size-8 shrink-0" />
        ),
      )}
      {access.bulkActions.map((action) => (
        <IconButton key={action.id} label={t(action.label)} onClick={() => openDialog({ kind: 'bulk', actionId: action.id, ids: [row.id] })}>
          <Icon name={action.icon} className="size-4" />
        </IconButton>
      ))}
      {access.canRemove && (
        <IconButton
          label={t('button.delete')}
          disabledReason={access.isOwn(row) ? t('own.noDelete') : undefined}
          onClick={() => openDialog({ kind: 'delete', ids: [row.id] })}
        >
          <Icon name="trash" className="size-4" />
        </IconButton>
      )}
    </div>
  );
}
