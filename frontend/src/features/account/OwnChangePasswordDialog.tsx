import { useSignals } from '@preact/signals-react/runtime';
import { FormDialog } from '../../components/FormDialog';
import { api } from '../../lib/api';
import { t } from '../../lib/i18n';
import { ownPasswordFields, ownPasswordSchema, type OwnPasswordValues } from './schemas';

const emptyValues: OwnPasswordValues = { oldPassword: '', newPassword: '', newPasswordConfirm: '' };

/** Change Password for the signed-in account (header menu and profile page). */
export function OwnChangePasswordDialog({ open, onClose, onChanged }: { open: boolean; onClose: () => void; onChanged?: () => void }) {
  useSignals();
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={t('header.changePassword')}
      fields={ownPasswordFields}
      schema={ownPasswordSchema}
      initialValues={emptyValues}
      submit={(values) => api.put('user/changePassword', values)}
      onSuccess={onChanged}
    />
  );
}
