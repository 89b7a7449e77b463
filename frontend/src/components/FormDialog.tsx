import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ApiError, errorMessage } from '../lib/api';
import { t } from '../lib/i18n';
import type { Schema } from '../lib/validation';
import { Alert } from './Alert';
import { Button } from './Button';
import { Dialog, DialogActions, type DialogSize } from './Dialog';
import { SidePanel } from './SidePanel';
import { FormFields } from './form/FormFields';
import { PENDING_FIELD } from './form/inputs';
import type { FieldDef } from './form/types';
import { useForm } from './form/useForm';
import { Spinner } from './Spinner';

/** The controls a person fills in, not the buttons between them (a picker's toggle, Add city). */
const FIRST_FIELD = 'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled])';

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
  /** Runs after a successful submit with the values sent, before the dialog closes (e.g. reload the list, confirm in a toast). */
  /** After a saved submit, with the server's answer (a new user's recovery codes). */
  onSuccess?: (values: V, answer: unknown) => void;
  submitLabel?: string;
  /** Server error keys that name a field differently (`cityId` → `cities`). */
  serverErrorAliases?: Partial<Record<string, keyof V & string>>;
  size?: DialogSize;
  /** 'sidePanel' opens the form in a panel at the right edge (long forms) instead of a centred dialog. */
  surface?: 'dialog' | 'sidePanel';
  /** Shown under the fields, e.g. a download's progress. */
  children?: ReactNode;
  /** A refused submit's message shows under this field instead of in the alert. */
  failureField?: keyof V & string;
}

/**
 * A declared form in a modal. Submit is disabled while sending; on success the
 * form resets and the dialog closes; on failure the server's message shows
 * inside the form, its per-field messages under their fields, and submit is
 * enabled again. Changing a field clears its server message, and the alert
 * once every field the server named has changed.
 */
export function FormDialog<V extends object>(props: FormDialogProps<V>) {
  useSignals();
  const { open, onClose, title, initialValues, loadError, size, surface = 'dialog' } = props;
  const body = loadError ? (
    <Alert tone="danger">{loadError}</Alert>
  ) : initialValues === null ? (
    <div className="flex justify-center py-8 text-indigo-600">
      <Spinner label={t('app.loading')} className="size-6" />
    </div>
  ) : (
    open && <FormDialogBody {...props} initialValues={initialValues} />
  );
  if (surface === 'sidePanel') {
    return (
      <SidePanel open={open} onClose={onClose} title={title}>
        {body}
      </SidePanel>
    );
  }
  return (
    <Dialog open={open} onClose={onClose} title={title} size={size}>
      {body}
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
  serverErrorAliases,
  children,
  failureField,
}: FormDialogProps<V> & { initialValues: V }) {
  useSignals();
  const form = useForm(initialValues, schema);
  const [sending, setSending] = useState(false);
  const idPrefix = useId();
  const formRef = useRef<HTMLFormElement>(null);

  // The first field takes focus when the form shows (an edit form only once its record has
  // loaded), rather than the dialog's close button; the dialog hands focus back to its opener.
  // When the first field is a picker whose code is still loading, focus waits for it, unless
  // the user has gone into another field meanwhile.
  useEffect(() => {
    const formElement = formRef.current;
    if (!formElement) return;
    const focusFirstWhenReady = () => {
      const first = formElement.querySelector<HTMLElement>(`${FIRST_FIELD}, ${PENDING_FIELD}`);
      if (first?.matches(PENDING_FIELD)) return false;
      const active = document.activeElement;
      const inAField = active instanceof HTMLElement && formElement.contains(active) && active.matches(FIRST_FIELD);
      if (!inAField) first?.focus();
      return true;
    };
    if (focusFirstWhenReady()) return;
    const observer = new MutationObserver(() => {
      if (focusFirstWhenReady()) observer.disconnect();
    });
    observer.observe(formElement, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);

  const onSubmit = form.handleSubmit(async (values) => {
    setSending(true);
    form.clearServerMessage();
    let answer: unknown;
    try {
      answer = await submit(values);
    } catch (error) {
      const names = fields.map((field) => field.name);
      const message = errorMessage(error);
      if (failureField) form.refuse(message, { [failureField]: message }, names);
      else form.refuse(message, error instanceof ApiError ? error.errors : {}, names, serverErrorAliases);
      setSending(false);
      return;
    }
    setSending(false);
    form.reset();
    onSuccess?.(values, answer);
    onClose();
  });

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit}>
      <FormFields fields={fields} form={form} idPrefix={idPrefix} />
      {children && <div className="mt-4">{children}</div>}
      {form.serverMessage && (
        <div className="mt-4">
          <Alert tone="danger">{form.serverMessage}</Alert>
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
