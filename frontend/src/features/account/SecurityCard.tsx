import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { FormDialog } from '../../components/FormDialog';
import { Icon } from '../../components/icons';
import { AuthenticatorKey } from '../../components/recovery/AuthenticatorKey';
import { RecoveryCodesDialog, recoveryCodesOf } from '../../components/recovery/RecoveryCodes';
import type { FieldDef } from '../../components/form/types';
import { FORM_MESSAGES } from '../../generated/messages';
import { api } from '../../lib/api';
import { loadProfile } from '../../lib/auth';
import { t } from '../../lib/i18n';
import { currentUser } from '../../lib/session';
import { MESSAGES, numeric, required, type Schema } from '../../lib/validation';

interface PasswordValues {
  password: string;
}
interface CodeValues {
  otp: string;
}

const passwordFields: FieldDef<PasswordValues>[] = [{ name: 'password', label: 'auth.password', kind: 'password', autoComplete: 'current-password' }];
// The sign-in's messages: the same password and the same six digits.
const SIGN_IN = FORM_MESSAGES['POST /api/auth/admin/token'];
const passwordSchema: Schema<PasswordValues> = { password: [required(SIGN_IN.password.required)] };
const codeFields: FieldDef<CodeValues>[] = [
  { name: 'otp', label: 'auth.otp', kind: 'text', inputMode: 'numeric', autoComplete: 'one-time-code', placeholder: '123456' },
];
const codeSchema: Schema<CodeValues> = { otp: [required(SIGN_IN.otp.required), numeric(MESSAGES.otpDigits)] };

type Step =
  | { kind: 'idle' }
  | { kind: 'newCodesPassword' }
  | { kind: 'setupPassword' }
  | { kind: 'scan'; qr: string; secret: string }
  | { kind: 'codes'; codes: string[] };

/**
 * The own account's second factor (issue 23): how many recovery codes are
 * left, a new set, and a new authenticator (after a sign-in with a recovery
 * code the panel brings the user here first). Each asks for the password; the
 * codes are shown once.
 */
export function SecurityCard() {
  useSignals();
  const user = currentUser.value;
  const [left, setLeft] = useState<number | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    let active = true;
    api.get<{ left: number }>('auth/recoveryCodes').then(
      (answer) => active && setLeft(answer.left),
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, [reloads]);
  if (!user) return null;
  const owner = `${user.firstName} ${user.lastName}`;
  const close = () => setStep({ kind: 'idle' });
  // A dialog closes after its success too, when the next step is already open: only its own step ends.
  const closeIf = (kind: Step['kind']) => setStep((current) => (current.kind === kind ? { kind: 'idle' } : current));
  const shown = (answer: unknown) => {
    setStep({ kind: 'codes', codes: recoveryCodesOf(answer) });
    setReloads((count) => count + 1);
  };

  return (
    <section aria-labelledby="security-heading" className="space-y-3 border-t border-slate-200 px-5 py-4">
      <h2 id="security-heading" className="text-base font-semibold text-slate-900">
        {t('security.title')}
      </h2>
      {user.mustSetUpAuthenticator && <Alert tone="info">{t('security.mustSetUp')}</Alert>}
      <p className="text-sm text-slate-700" role="status">
        {left === null ? t('table.loading') : t('security.codesLeft', { count: left })}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button variant={user.mustSetUpAuthenticator ? 'primary' : 'secondary'} onClick={() => setStep({ kind: 'setupPassword' })}>
          <Icon name="qr" className="size-4" />
          {t('security.setUp')}
        </Button>
        <Button onClick={() => setStep({ kind: 'newCodesPassword' })}>
          <Icon name="refresh" className="size-4" />
          {t('security.newCodes')}
        </Button>
      </div>

      <FormDialog
        open={step.kind === 'newCodesPassword'}
        onClose={() => closeIf('newCodesPassword')}
        title={t('security.newCodes')}
        fields={passwordFields}
        schema={passwordSchema}
        initialValues={{ password: '' }}
        submit={(values) => api.post('auth/recoveryCodes', values)}
        onSuccess={(_, answer) => shown(answer)}
      >
        <p className="text-sm text-slate-700">{t('security.newCodesHelp')}</p>
      </FormDialog>
      <FormDialog
        open={step.kind === 'setupPassword'}
        onClose={() => closeIf('setupPassword')}
        title={t('security.setUp')}
        fields={passwordFields}
        schema={passwordSchema}
        initialValues={{ password: '' }}
        submit={(values) => api.post('auth/authenticator', values)}
        onSuccess={(_, answer) => {
          const setup = answer as { data: string; secret: string };
          setStep({ kind: 'scan', qr: setup.data, secret: setup.secret });
        }}
      >
        <p className="text-sm text-slate-700">{t('security.setUpHelp')}</p>
      </FormDialog>
      <FormDialog
        open={step.kind === 'scan'}
        onClose={() => closeIf('scan')}
        title={t('security.setUp')}
        fields={codeFields}
        schema={codeSchema}
        initialValues={{ otp: '' }}
        submit={(values) => api.put('auth/authenticator', values)}
        onSuccess={(_, answer) => {
          shown(answer);
          loadProfile().catch(() => undefined);
        }}
      >
        {step.kind === 'scan' && (
          <div className="flex flex-col items-center gap-2 text-center">
            <img src={step.qr} alt={`${t('tool.qrCode')}: ${owner}`} className="size-48 rounded-lg bg-white p-2" />
            <p className="text-xs text-slate-600">{t('security.scanHelp')}</p>
            <AuthenticatorKey secret={step.secret} />
          </div>
        )}
      </FormDialog>
      {step.kind === 'codes' && <RecoveryCodesDialog codes={step.codes} owner={owner} own onClose={close} />}
    </section>
  );
}
