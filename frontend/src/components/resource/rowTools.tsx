import { t, type MessageKey } from '../../lib/i18n';
import type { Schema } from '../../lib/validation';
import { FormDialog } from '../FormDialog';
import type { FieldDef } from '../form/types';
import type { IconName } from '../icons';
import { Role } from '../../lib/roles';
import { currentUser } from '../../lib/session';
import { QrCodeDialog, ResetAuthenticatorDialog } from './QrCodeDialog';
import type { RowTool } from './types';

/**
 * A row tool that opens a declared form about that row (an admin password
 * change, ...); the dialog is titled like the tool, and the list reloads
 * after a successful submit. Forms change data, so Call Center never sees it.
 */
export function formTool<Row, V extends object>({
  id,
  label,
  icon,
  fields,
  schema,
  initialValues,
  submit,
  confirmation,
  submitLabel,
}: {
  id: string;
  label: MessageKey;
  /** The dialog's submit button, when it does more than save ('Send' for a notification). */
  submitLabel?: MessageKey;
  icon: IconName;
  fields: readonly FieldDef<V>[];
  schema: Schema<V>;
  initialValues: () => V;
  submit: (values: V, row: Row) => Promise<unknown>;
  /** The toast after a successful submit, e.g. "Password of Jane Doe changed". */
  confirmation: (row: Row) => string;
}): RowTool<Row> {
  return {
    id,
    label,
    icon,
    editorsOnly: true,
    render: ({ row, onClose, onDone }) => (
      <FormDialog
        open
        onClose={onClose}
        title={t(label)}
        fields={fields}
        schema={schema}
        initialValues={initialValues()}
        submit={(values) => submit(values, row)}
        onSuccess={() => onDone(confirmation(row))}
        submitLabel={submitLabel && t(submitLabel)}
      />
    ),
  };
}

/** The authenticator QR code of the row's sign-in user; it is a secret, so Call Center never sees it. */
export function qrCodeTool<Row>({ userId, name }: { userId: (row: Row) => number; name: (row: Row) => string }): RowTool<Row> {
  return {
    id: 'qr-code',
    label: 'tool.qrCode',
    icon: 'qr',
    editorsOnly: true,
    render: ({ row, onClose }) => <QrCodeDialog userId={userId(row)} name={name(row)} onClose={onClose} />,
  };
}

/**
 * A new authenticator for the row's login (Admins only, never one's own): the
 * tool of a lost phone, on the Users and HR screens.
 */
export function resetAuthenticatorTool<Row>({ userId, name }: { userId: (row: Row) => number; name: (row: Row) => string }): RowTool<Row> {
  return {
    id: 'reset-authenticator',
    label: 'tool.resetAuthenticator',
    icon: 'refresh',
    editorsOnly: true,
    isAvailable: (row) => currentUser.value?.roleId === Role.Admin && currentUser.value.id !== userId(row),
    render: ({ row, onClose }) => <ResetAuthenticatorDialog userId={userId(row)} name={name(row)} onClose={onClose} />,
  };
}
