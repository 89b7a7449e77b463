import { useSignals } from '@preact/signals-react/runtime';
import { Alert } from '../../components/Alert';
import { Dialog } from '../../components/Dialog';
import { useRecord } from '../../components/resource/useRemoteData';
import { Spinner } from '../../components/Spinner';
import { t } from '../../lib/i18n';

/** The authenticator enrolment QR (a PNG data URL from `GET user/get-qr?id=`). */
export function QrCodeDialog({ userId, name, onClose }: { userId: number; name: string; onClose: () => void }) {
  useSignals();
  const qr = useRecord<{ data: string }>(`user/get-qr?id=${userId}`);
  return (
    <Dialog open onClose={onClose} title={t('users.qrCode')} size="sm">
      <div className="flex flex-col items-center gap-4 text-center">
        <p className="text-sm font-medium text-slate-800">{name}</p>
        {qr.error && <Alert tone="danger">{qr.error}</Alert>}
        {!qr.data && !qr.error && <Spinner label={t('app.loading')} className="size-6" />}
        {qr.data && <img src={qr.data.data} alt={`${t('users.qrCode')}: ${name}`} className="size-56" />}
        <p className="text-xs text-slate-500">{t('users.qrHelp')}</p>
      </div>
    </Dialog>
  );
}
