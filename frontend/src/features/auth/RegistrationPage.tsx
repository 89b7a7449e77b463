import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useState } from 'react';
import { Link } from 'wouter';
import { Alert } from '../../components/Alert';
import { FormFields } from '../../components/form/FormFields';
import { errorId } from '../../components/form/inputs';
import { useForm } from '../../components/form/useForm';
import { Spinner } from '../../components/Spinner';
import { ApiError } from '../../lib/api';
import { publicAuth } from '../../lib/auth';
import { t } from '../../lib/i18n';
import { AuthLayout, SubmitOrCancel } from './AuthLayout';
import { registrationFields, registrationSchema, type RegistrationValues } from './schemas';

const REGISTRATION_FAILED = 'The login detail is incorrect';

const initialValues: RegistrationValues = {
  fullname: '',
  email: '',
  username: '',
  password: '',
  changepassword: '',
  acceptTerms: false,
};

type Availability = 'checking' | 'open' | 'closed';

export default function RegistrationPage() {
  useSignals();
  const [availability, setAvailability] = useState<Availability>('checking');
  const [done, setDone] = useState(false);

  useEffect(() => {
    let active = true;
    publicAuth.settings().then(
      (settings) => active && setAvailability(settings.allowRegistration ? 'open' : 'closed'),
      () => active && setAvailability('closed'),
    );
    return () => {
      active = false;
    };
  }, []);

  return (
    <AuthLayout title={t('auth.registration.title')} subtitle={availability === 'open' && !done ? t('auth.registration.subtitle') : undefined}>
      {availability === 'checking' && (
        <div className="flex justify-center py-8 text-indigo-600">
          <Spinner label={t('app.loading')} className="size-6" />
        </div>
      )}
      {(availability === 'closed' || done) && (
        <div className="space-y-6">
          <Alert tone={done ? 'success' : 'info'}>{done ? t('auth.registration.done') : t('auth.registration.closed')}</Alert>
          <Link href="/auth/login" className="text-sm font-medium text-indigo-600 hover:text-indigo-500">
            {t('auth.backToSignIn')}
          </Link>
        </div>
      )}
      {availability === 'open' && !done && <RegistrationForm onRegistered={() => setDone(true)} onClosed={() => setAvailability('closed')} />}
    </AuthLayout>
  );
}

function RegistrationForm({ onRegistered, onClosed }: { onRegistered: () => void; onClosed: () => void }) {
  useSignals();
  const form = useForm(initialValues, registrationSchema);
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  const idPrefix = useId();
  const termsId = `${idPrefix}-acceptTerms`;
  const termsError = form.errorFor('acceptTerms');

  const onSubmit = form.handleSubmit(async (values) => {
    setSending(true);
    setFailed(false);
    try {
      await publicAuth.register({
        email: values.email.trim(),
        fullname: values.fullname.trim(),
        username: values.username.trim(),
        password: values.password,
      });
      onRegistered();
    } catch (error) {
      setSending(false);
      if (error instanceof ApiError && error.status === 403) onClosed();
      else setFailed(true);
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5">
      {failed && <Alert tone="danger">{REGISTRATION_FAILED}</Alert>}
      <FormFields fields={registrationFields} form={form} idPrefix={idPrefix} />
      <div>
        <div className="flex items-start gap-2">
          <input
            id={termsId}
            type="checkbox"
            className="mt-0.5 size-4 rounded border-slate-300"
            checked={form.values.acceptTerms}
            aria-invalid={Boolean(termsError) || undefined}
            aria-describedby={termsError ? errorId(termsId) : undefined}
            onChange={(event) => form.setValue('acceptTerms', event.target.checked)}
            onBlur={() => form.touch('acceptTerms')}
          />
          <label htmlFor={termsId} className="text-sm text-slate-700">
            {t('auth.acceptTermsPrefix')}{' '}
            {/* A new tab: leaving this page would lose what was typed. */}
            <a href="/terms" target="_blank" rel="noopener" className="font-medium text-indigo-700 hover:text-indigo-500">
              {t('auth.terms')}
              <span className="sr-only"> {t('link.newTab')}</span>
            </a>
          </label>
        </div>
        {termsError && (
          <p id={errorId(termsId)} className="mt-1 text-xs text-red-600">
            {termsError}
          </p>
        )}
      </div>
      <SubmitOrCancel busy={sending} disabled={!form.isValid} />
    </form>
  );
}
