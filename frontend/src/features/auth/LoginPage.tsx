import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useState } from 'react';
import { Link } from 'wouter';
import { Alert, type AlertTone } from '../../components/Alert';
import { Button } from '../../components/Button';
import { FormFields } from '../../components/form/FormFields';
import { useForm } from '../../components/form/useForm';
import { ApiError } from '../../lib/api';
import { publicAuth, signIn } from '../../lib/auth';
import { t, translateText } from '../../lib/i18n';
import { MESSAGES } from '../../lib/validation';
import { AuthLayout } from './AuthLayout';
import { authNotice } from './authNotice';
import { recoverySignInFields, recoverySignInSchema, signInFields, signInSchema, type SignInValues } from './schemas';


/** The error catalogue: a lock is information, anything else a plain "incorrect" (never which factor). */
function signInFailure(error: unknown): { tone: AlertTone; text: string } {
  // The server's message arrives in the interface language (lib/api), so it is compared translated.
  return error instanceof ApiError && error.message === translateText(MESSAGES.locked)
    ? { tone: 'info', text: translateText(MESSAGES.locked) }
    : { tone: 'danger', text: translateText(MESSAGES.signInFailed) };
}

const initialValues: SignInValues = { userName: '', password: '', otp: '', recoveryCode: '' };

export default function LoginPage() {
  useSignals();
  // A lost authenticator: one of the recovery codes signs in once instead of the six digits.
  const [withRecoveryCode, setWithRecoveryCode] = useState(false);
  const form = useForm(initialValues, withRecoveryCode ? recoverySignInSchema : signInSchema);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<{ tone: AlertTone; text: string } | null>(null);
  const notice = authNotice.value;
  const idPrefix = useId();
  // Sign Up is offered only when the operator opened registration; otherwise it would lead to a closed door.
  const [registrationOpen, setRegistrationOpen] = useState(false);
  useEffect(() => {
    let active = true;
    publicAuth.settings().then(
      (settings) => active && setRegistrationOpen(settings.allowRegistration),
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, []);

  // The notice is for this visit only.
  useEffect(
    () => () => {
      authNotice.value = null;
    },
    [],
  );

  const onSubmit = form.handleSubmit(async (values) => {
    setSending(true);
    setFailure(null);
    authNotice.value = null;
    try {
      // Success stores the session; GuestOnly then sends the user on to where they were going.
      const credentials = { userName: values.userName.trim(), password: values.password.trim() };
      await signIn(
        withRecoveryCode ? { ...credentials, otp: '', recoveryCode: values.recoveryCode.trim() } : { ...credentials, otp: values.otp.trim() },
      );
    } catch (error) {
      setFailure(signInFailure(error));
      setSending(false);
    }
  });

  return (
    <AuthLayout title={t('auth.signIn.title')} subtitle={t('auth.signIn.subtitle')}>
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
        {failure && <Alert tone={failure.tone}>{failure.text}</Alert>}
        <FormFields fields={withRecoveryCode ? recoverySignInFields : signInFields} form={form} idPrefix={idPrefix} />
        <div className="flex flex-wrap justify-between gap-2">
          <button
            type="button"
            className="text-sm font-medium text-indigo-700 hover:text-indigo-500"
            onClick={() => setWithRecoveryCode((on) => !on)}
          >
            {withRecoveryCode ? t('auth.useAuthenticator') : t('auth.useRecoveryCode')}
          </button>
          <Link href="/auth/forgot-password" className="text-sm font-medium text-indigo-700 hover:text-indigo-500">
            {t('auth.forgotLink')}
          </Link>
        </div>
        <Button type="submit" variant="primary" className="w-full" busy={sending}>
          {t('auth.signIn.submit')}
        </Button>
        {registrationOpen && (
          <p className="text-center text-sm text-slate-600">
            {t('auth.noAccount')}{' '}
            <Link href="/auth/registration" className="font-medium text-indigo-700 hover:text-indigo-500">
              {t('auth.signUp')}
            </Link>
          </p>
        )}
      </form>
    </AuthLayout>
  );
}
