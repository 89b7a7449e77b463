import { useSignals } from '@preact/signals-react/runtime';
import { useId, useState } from 'react';
import { useLocation } from 'wouter';
import { Alert } from '../../components/Alert';
import { FormFields } from '../../components/form/FormFields';
import { useForm } from '../../components/form/useForm';
import { publicAuth } from '../../lib/auth';
import { t } from '../../lib/i18n';
import { AuthLayout, SubmitOrCancel } from './AuthLayout';
import { authNotice } from './authNotice';
import { forgotPasswordFields, forgotPasswordSchema } from './schemas';

const notFoundMessage = (email: string) => `The requested ${email} is not found`;

export default function ForgotPasswordPage() {
  useSignals();
  const form = useForm({ email: '' }, forgotPasswordSchema);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [, navigate] = useLocation();
  const idPrefix = useId();

  const onSubmit = form.handleSubmit(async ({ email }) => {
    const entered = email.trim();
    setSending(true);
    setFailure(null);
    try {
      const response = await publicAuth.requestPasswordReset(entered);
      authNotice.value = { tone: 'success', text: response.message };
      navigate('/auth');
    } catch {
      setFailure(notFoundMessage(entered));
      setSending(false);
    }
  });

  return (
    <AuthLayout title={t('auth.forgot.title')} subtitle={t('auth.forgot.subtitle')}>
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        {failure && <Alert tone="danger">{failure}</Alert>}
        <FormFields fields={forgotPasswordFields} form={form} idPrefix={idPrefix} />
        <SubmitOrCancel busy={sending} />
      </form>
    </AuthLayout>
  );
}
