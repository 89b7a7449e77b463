import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { DetailList } from '../../components/Drawer';
import { Icon } from '../../components/icons';
import { PageCard } from '../../components/PageCard';
import { StatusBadge } from '../../components/StatusToggle';
import { loadProfile } from '../../lib/auth';
import { t } from '../../lib/i18n';
import { formatPhone } from '../../lib/phone';
import { roleOptions } from '../../lib/roles';
import { currentUser } from '../../lib/session';
import { OwnChangePasswordDialog } from './OwnChangePasswordDialog';
import { SecurityCard } from './SecurityCard';

/** /my-page and /user-profile: the signed-in account, with Change password. */
export default function ProfilePage() {
  useSignals();
  const user = currentUser.value;
  const [changing, setChanging] = useState(false);
  const [changed, setChanged] = useState(false);

  // The stored profile may be stale (an admin edited it); refresh it on open.
  useEffect(() => {
    loadProfile().catch(() => undefined);
  }, []);

  if (!user) return null;
  const role = roleOptions.find((option) => option.value === user.roleId);
  return (
    <PageCard
      title={t('profile.title')}
      className="max-w-2xl"
      actions={
        <Button variant="primary" onClick={() => setChanging(true)}>
          <Icon name="key" className="size-4" />
          {t('profile.changePassword')}
        </Button>
      }
    >
      <div className="space-y-4 px-5 py-4">
        {changed && <Alert tone="success">{t('password.changed')}</Alert>}
        <DetailList
          items={[
            { label: t('field.firstName'), value: user.firstName },
            { label: t('field.lastName'), value: user.lastName },
            { label: t('field.email'), value: user.email },
            { label: t('field.phone'), value: formatPhone(user.phone) || t('table.noValue') },
            { label: t('field.role'), value: role ? t(role.labelKey) : String(user.roleId) },
            { label: t('field.status'), value: <StatusBadge active={user.isActive} /> },
          ]}
        />
      </div>
      <SecurityCard />
      <OwnChangePasswordDialog open={changing} onClose={() => setChanging(false)} onChanged={() => setChanged(true)} />
    </PageCard>
  );
}
