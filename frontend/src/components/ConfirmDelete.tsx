import { useSignals } from '@preact/signals-react/runtime';
import { t, type MessageKey } from '../lib/i18n';
import { Alert } from './Alert';
import { Button } from './Button';
import { Dialog, DialogActions } from './Dialog';
import { useCall } from './useCall';

/**
 * Names what goes ("Delete 3 users?", "Delete partner Bravo?"), then asks the
 * spec's 'Are you sure to delete?'; the dialog stays open with the server's
 * message if the delete fails. Other confirmed changes (the trash's Restore)
 * give their own title, second line and tone.
 */
export function ConfirmDelete({
  open,
  onClose,
  question,
  onConfirm,
  title = 'delete.title',
  detail = 'delete.question',
  tone = 'danger',
}: {
  open: boolean;
  onClose: () => void;
  question: string;
  onConfirm: () => Promise<unknown>;
  title?: MessageKey;
  detail?: MessageKey;
  tone?: 'primary' | 'danger';
}) {
  useSignals();
  const { busy, error, run } = useCall();
  const confirm = async () => {
    if (await run(onConfirm)) onClose();
  };

  return (
    <Dialog open={open} onClose={onClose} title={t(title)} size="sm">
      <p className="text-sm font-semibold text-slate-900">{question}</p>
      <p className="mt-1 text-sm text-slate-700">{t(detail)}</p>
      {error && (
        <div className="mt-3">
          <Alert tone="danger">{error}</Alert>
        </div>
      )}
      <DialogActions>
        <Button onClick={onClose}>{t('button.no')}</Button>
        <Button variant={tone} busy={busy} onClick={confirm}>
          {t('button.yes')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
