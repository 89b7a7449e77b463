import { useSignals } from '@preact/signals-react/runtime';
import { t, type MessageKey } from '../../lib/i18n';
import { Alert } from '../Alert';
import { Button } from '../Button';
import { Dialog, DialogActions } from '../Dialog';
import type { IconName } from '../icons';
import { useCall } from '../useCall';
import type { RowTool } from './types';

function ConfirmActionDialog({
  title,
  question,
  confirmLabel,
  onConfirm,
  onClose,
}: {
  title: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  useSignals();
  const { busy, error, run } = useCall();
  const confirm = () => run(onConfirm);
  return (
    <Dialog open onClose={onClose} title={title} size="sm">
      <p className="text-sm text-slate-900">{question}</p>
      {error && (
        <div className="mt-3">
          <Alert tone="danger">{error}</Alert>
        </div>
      )}
      <DialogActions>
        <Button onClick={onClose}>{t('button.cancel')}</Button>
        <Button variant="primary" busy={busy} onClick={confirm}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * A row tool that asks before one call about the row (approve an expected
 * campaign): the question names the row; the call's refusal stays in the
 * dialog; success closes it, reloads the list and confirms in a toast.
 */
export function confirmTool<Row>({
  id,
  label,
  icon,
  question,
  run,
  confirmation,
}: {
  id: string;
  label: MessageKey;
  icon: IconName;
  question: (row: Row) => string;
  run: (row: Row) => Promise<unknown>;
  confirmation: (row: Row) => string;
}): RowTool<Row> {
  return {
    id,
    label,
    icon,
    editorsOnly: true,
    render: ({ row, onClose, onDone }) => (
      <ConfirmActionDialog
        title={t(label)}
        question={question(row)}
        confirmLabel={t(label)}
        onClose={onClose}
        onConfirm={async () => {
          await run(row);
          onClose();
          onDone(confirmation(row));
        }}
      />
    ),
  };
}
