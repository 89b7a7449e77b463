import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { api, errorMessage } from '../../lib/api';
import type { Schema } from '../../lib/contract';
import { AuthenticatorKey } from '../recovery/AuthenticatorKey';
import { RecoveryCodeList, recoveryCodesOf } from '../recovery/RecoveryCodes';
import { t } from '../../lib/i18n';
import { Alert } from '../Alert';
import { Button } from '../Button';
import { Dialog, DialogActions } from '../Dialog';
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
        {qr.data && <img src={qr.data.data} alt={`${t('tool.qrCode')}: ${name}`} className="size-56 rounded-lg bg-white p-2" />}
        <p className="text-xs text-slate-500">{t('tool.qrHelp')}</p>
      </div>
    </Dialog>
  );
}

/**
 * A lost phone (issue 23): an Admin gives the row's login a new authenticator
 * (`PUT user/resetAuthenticator {id}`) after asking; the old one stops working
 * and the person is signed out everywhere. The new QR code and its key (to read
 * out by phone) are shown here once, for the Admin to hand over.
 */
export function ResetAuthenticatorDialog({ userId, name, onClose }: { userId: number; name: string; onClose: () => void }) {
  useSignals();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [secret, setSecret] = useState('');
  const [codes, setCodes] = useState<string[]>([]);
  const reset = async () => {
    setBusy(true);
    setError(null);
    try {
      const answer = await api.put<Schema<'NewAuthenticator'>>('user/resetAuthenticator', { id: userId });
      setQr(answer.data);
      setSecret(answer.secret);
      setCodes(recoveryCodesOf(answer));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} title={t('tool.resetAuthenticator')} size="sm">
      {qr ? (
        <div className="flex flex-col items-center gap-4 text-center">
          <p className="text-sm text-slate-900">{t('tool.resetAuthenticatorDone', { name })}</p>
          <img src={qr} alt={`${t('tool.qrCode')}: ${name}`} className="size-56 rounded-lg bg-white p-2" />
          <p className="text-xs text-slate-600">{t('tool.qrHelp')}</p>
          {secret && <AuthenticatorKey secret={secret} />}
          <div className="w-full text-left">
            {codes.length > 0 && <RecoveryCodeList codes={codes} owner={name} />}
          </div>
        </div>
      ) : (
        <p className="text-sm text-slate-900">{t('tool.resetAuthenticatorQuestion', { name })}</p>
      )}
      {error && (
        <div className="mt-3">
          <Alert tone="danger">{error}</Alert>
        </div>
      )}
      <DialogActions>
        {qr ? (
          <Button variant="primary" onClick={onClose}>
            {t('button.close')}
          </Button>
        ) : (
          <>
            <Button onClick={onClose}>{t('button.cancel')}</Button>
            <Button variant="primary" busy={busy} onClick={reset}>
              {t('tool.resetAuthenticator')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
