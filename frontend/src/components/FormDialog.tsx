import { useSignals } from '@preact/signals-react/runtime';
import { useId, useState } from 'react';
import { errorMessage } from '../lib/api';
import { t } from '../lib/i18n';
import type { Schema } from '../lib/validation';
import { Alert } from './Alert';
import { Button } from './Button';
import { Dialog, DialogActions } from './Dialog';
import { FormFields } from './form/FormFields';
import type { FieldDef } from './form/types';
import { useForm } from './form/useForm';
import { Spinner } from './Spinner';

export interface FormDialogProps<V extends object> {
  open: boolean;
  onClose: () => void;
  title: string;
  fields: readonly FieldDef<V>[];
  schema: Schema<V>;
  /** null while the record being edited is still loading. */
  initialValues: V | null;
  /** Set when the record could not be loaded. */
  loadError?: string | null;
  submit: (values: V) => Promise<unknown>;
  /** Runs after a successful submit, before the dialog closes (e.g. reload the list). */
  onSuccess?: () => void;
  submitLabel?: string;
}

/**
 * A declared form in a modal. Submit is disabled while sending; on success the
 * form resets and the dialog closes; on failure the server's message shows
 * inside the form and submit is enabled again.
 */
export function FormDialog<V extends object>(props: FormDialogProps<V>) {
  useSignals();
  const { open, onClose, title, initialValues, loadError } = props;
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      {loadError ? (
        <Alert tone="danger">{loadError}</Alert>
      ) : initialValues === null ? (
        <div className="flex justify-center py-8 text-indigo-600">
          <Spinner label={t('app.loading')} className="size-6" />
        </div>
      ) : (
        open && <FormDialogBody {...props} initialValues={initialValues} />
      )}
    </Dialog>
  );
}

function FormDialogBody<V extends object>({
  onClose,
  fields,
  schema,
  initialValues,
  submit,
  onSuccess,
  submitLabel,
}: FormDialogProps<V> & { initialValues: V }) {
  useSignals();
  const form = useForm(initialValues, schema);
  const [sending, setSending] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const idPrefix = useId();

  const onSubmit = form.handleSubmit(async (values) => {
    setSending(true);
    setServerError(null);
    try {
      await submit(values);
    } catch (error) {
      setServerError(errorMessage(error));
      setSending(false);
      return;
    }
    setSending(false);
    form.reset();
    onSuccess?.();
    onClose();
  });

  return (
    <form noValidate onSubmit={onSubmit}>
      <FormFields fields={fields} form={form} idPrefix={idPrefix} />
      {serverError && (
        <div className="mt-4">
          <Alert tone="danger">{serverError}</Alert>
        </div>
      )}
      <DialogActions>
        <Button onClick={onClose}>{t('button.cancel')}</Button>
        <Button type="submit" variant="primary" busy={sending}>
          {submitLabel ?? t('button.save')}
        </Button>
      </DialogActions>
    </form>
  );
}
