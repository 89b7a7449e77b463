import { useSignals } from '@preact/signals-react/runtime';
import { t } from '../../lib/i18n';
import { Alert } from '../Alert';
import { Dialog } from '../Dialog';
import { Spinner } from '../Spinner';
import { useRecord } from './useRemoteData';

/**
 * The authenticator enrolment QR (a PNG data URL from `GET user/get-qr?id=`).
 * A failed fetch is reported inside this dialog rather than as the list's
 * error state: the list itself loaded fine and stays usable.
 */
export function QrCodeDialog({ userId, name, onClose }: { userId: number; name: string; onClose: () => void }) {
  useSignals();
  const qr = useRecord<{ data: string }>(`user/get-qr?id=${userId}`);
  return (
    <Dialog open onClose={onClose} title={t('tool.qrCode')} size="sm">
      <div className="flex flex-col items-center gap-4 text-center">
        <p className="text-sm font-medium text-slate-800">{name}</p>
        {qr.error && <Alert tone="danger">{qr.error}</Alert>}
        {!qr.data && !qr.error && <Spinner label={t('app.loading')} className="size-6" />}
        {qr.data && <img src={qr.data.data} alt={`${t('tool.qrCode')}: ${name}`} className="size-56" />}
        <p className="text-xs text-slate-500">{t('tool.qrHelp')}</p>
      </div>
    </Dialog>
  );
}
