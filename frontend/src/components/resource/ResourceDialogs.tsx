import { useSignals } from '@preact/signals-react/runtime';
import { useReducer, useState, type ReactNode } from 'react';
import { api } from '../../lib/api';
import { t } from '../../lib/i18n';
import { ConfirmDelete } from '../ConfirmDelete';
import { Drawer } from '../Drawer';
import { FormDialog } from '../FormDialog';
import type { ResourceAccess } from './resourceAccess';
import { ResourceDrawerBody } from './ResourceDrawerBody';
import type { ResourceWords } from './resourceWords';
import type { ResourceDeclaration, ResourceRow } from './types';
import { useRecord } from './useRemoteData';
import type { ResourceController } from './useResourceController';

/** The one dialog a list screen has open, opened from its toolbar or a row's tools. */
export type OpenDialog<Row> =
  | { kind: 'create' }
  | { kind: 'edit'; row: Row }
  | { kind: 'view'; row: Row }
  | { kind: 'delete'; ids: number[] }
  | { kind: 'bulk'; actionId: string; ids: number[] }
  | { kind: 'tool'; toolId: string; row: Row }
  | null;

/**
 * Every dialog of a list screen: the create and edit forms, the detail drawer, the delete and bulk
 * confirmations, a row tool's own dialog, and what a create shows once. Edit and view read the
 * record (`GET {itemPath}/{id}`) while they are open; each change ends in `mutated`.
 */
export function ResourceDialogs<Row extends ResourceRow>({
  resource,
  access,
  words,
  controller,
  dialog,
  onClose,
  mutated,
}: {
  resource: ResourceDeclaration<Row>;
  access: ResourceAccess<Row>;
  words: ResourceWords<Row>;
  controller: ResourceController<Row>;
  dialog: OpenDialog<Row>;
  onClose: () => void;
  /** After a change: the list is read again and `confirmation` announced. */
  mutated: (confirmation?: string) => void;
}) {
  useSignals();
  const { list, setSelected } = controller;
  const itemPath = resource.itemPath ?? resource.basePath;
  // The open drawer's record is read again after a change made in it (a status chosen there).
  const [recordToken, reloadRecord] = useReducer((count: number) => count + 1, 0);
  const [shownOnce, setShownOnce] = useState<ReactNode>(null);
  const detailPath = dialog?.kind === 'edit' || dialog?.kind === 'view' ? `${itemPath}/${dialog.row.id}` : null;
  const detail = useRecord<Row>(detailPath, recordToken);
  const activeTool = dialog?.kind === 'tool' ? access.tools.find((tool) => tool.id === dialog.toolId) : undefined;
  const { create, edit } = resource;

  // The confirmation names what goes: the row when it is one on this page, else the count.
  const deleting = dialog?.kind === 'delete' ? dialog.ids : [];
  const deletingRow = deleting.length === 1 ? list.rows.find((row) => row.id === deleting[0]) : undefined;
  const deleteQuestion = deletingRow
    ? t('delete.one', { noun: words.one, name: resource.rowLabel(deletingRow) })
    : t('delete.many', { count: deleting.length, noun: words.nounFor(deleting.length) });
  const deletedMessage = deletingRow
    ? t('toast.deleted', { item: words.nameOf(deletingRow) })
    : t('toast.deleted', { item: words.countOf(deleting.length) });
  // A bulk action's confirmation and toast name the row when it is one on this page, like delete's.
  const bulk = dialog?.kind === 'bulk' ? access.bulkActions.find((action) => action.id === dialog.actionId) : undefined;
  const bulkIds = dialog?.kind === 'bulk' ? dialog.ids : [];
  const bulkRow = bulkIds.length === 1 ? list.rows.find((row) => row.id === bulkIds[0]) : undefined;
  const bulkTarget = { count: bulkIds.length, name: bulkRow && resource.rowLabel(bulkRow), row: bulkRow };

  return (
    <>
      {create && (
        <FormDialog
          open={dialog?.kind === 'create'}
          onClose={onClose}
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
            mutated(create.confirmation?.(values) ?? t('toast.created', { item: words.named(create.nameOf?.(values) ?? '') }));
            if (create.shownOnce) setShownOnce(create.shownOnce(answer, values, () => setShownOnce(null)));
          }}
        />
      )}
      {edit && (
        <FormDialog
          open={dialog?.kind === 'edit'}
          onClose={onClose}
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
            dialog?.kind === 'edit' && mutated(t('toast.saved', { item: words.named(edit.nameOf?.(values) ?? resource.rowLabel(dialog.row)) }))
          }
        />
      )}
      {resource.view && (
        <Drawer open={dialog?.kind === 'view'} onClose={onClose} title={t(resource.view.title)} size={resource.view.size}>
          {dialog?.kind === 'view' && (
            <ResourceDrawerBody
              spec={resource.view}
              row={detail.data ?? dialog.row}
              rowLabel={resource.rowLabel(detail.data ?? dialog.row)}
              writable={access.writable}
              history={resource.history === false ? null : { itemPath, id: dialog.row.id }}
              reloadToken={recordToken}
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
      {access.canRemove && (
        <ConfirmDelete
          open={dialog?.kind === 'delete'}
          onClose={onClose}
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
          onClose={onClose}
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
      {activeTool && dialog?.kind === 'tool' && activeTool.render({ row: dialog.row, onClose, onDone: (confirmation) => mutated(confirmation) })}
    </>
  );
}
