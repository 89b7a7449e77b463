import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { errorMessage } from '../lib/api';
import { t } from '../lib/i18n';
import { Alert } from './Alert';
import { Button } from './Button';
import { Dialog, DialogActions } from './Dialog';

/**
 * Names what goes ("Delete 3 users?", "Delete partner Bravo?"), then asks the
 * spec's 'Are you sure to delete?'; the dialog stays open with the server's
 * message if the delete fails.
 */
export function ConfirmDelete({
  open,
  onClose,
  question,
  onConfirm,
}: {
  open: boolean;
  onClose: () => void;
  question: string;
  onConfirm: () => Promise<unknown>;
}) {
  useSignals();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} title={t('delete.title')} size="sm">
      <p className="text-sm font-semibold text-slate-900">{question}</p>
      <p className="mt-1 text-sm text-slate-700">{t('delete.question')}</p>
      {error && (
        <div className="mt-3">
          <Alert tone="danger">{error}</Alert>
        </div>
      )}
      <DialogActions>
        <Button onClick={onClose}>{t('button.no')}</Button>
        <Button variant="danger" busy={busy} onClick={confirm}>
          {t('button.yes')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
