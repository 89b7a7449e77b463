import { useSignals } from '@preact/signals-react/runtime';
import { useId, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { FormFields } from '../../components/form/FormFields';
import { useForm } from '../../components/form/useForm';
import { errorMessage } from '../../lib/api';
import { publicAuth } from '../../lib/auth';
import { t } from '../../lib/i18n';
import { AuthLayout } from './AuthLayout';
import { authNotice } from './authNotice';
import { resetPasswordFields, resetPasswordSchema } from './schemas';

/** The page the e-mailed (or logged) reset link opens: /auth/reset-password?token=... */
export default function ResetPasswordPage() {
  useSignals();
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const form = useForm({ newPassword: '', newPasswordConfirm: '' }, resetPasswordSchema);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [, navigate] = useLocation();
  const idPrefix = useId();

  const onSubmit = form.handleSubmit(async (values) => {
    setSending(true);
    setFailure(null);
    try {
      await publicAuth.confirmPasswordReset({ token, ...values });
      authNotice.value = { tone: 'success', text: t('auth.reset.done') };
      navigate('/auth/login');
    } catch (error) {
      setFailure(errorMessage(error));
      setSending(false);
    }
  });

  return (
    <AuthLayout title={t('auth.reset.title')} subtitle={token ? t('auth.reset.subtitle') : undefined}>
      {token ? (
        <form noValidate onSubmit={onSubmit} className="space-y-5">
          {failure && <Alert tone="danger">{failure}</Alert>}
          <FormFields fields={resetPasswordFields} form={form} idPrefix={idPrefix} />
          <Button type="submit" variant="primary" className="w-full" busy={sending}>
            {t('button.submit')}
          </Button>
        </form>
      ) : (
        <div className="space-y-6">
          <Alert tone="danger">{t('auth.reset.missingToken')}</Alert>
          <Link href="/auth/forgot-password" className="text-sm font-medium text-indigo-600 hover:text-indigo-500">
            {t('auth.reset.requestNew')}
          </Link>
        </div>
      )}
    </AuthLayout>
  );
}
