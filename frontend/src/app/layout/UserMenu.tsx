import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { Link } from 'wouter';
import { Icon, type IconName } from '../../components/icons';
import { OwnChangePasswordDialog } from '../../features/account/OwnChangePasswordDialog';
import { t } from '../../lib/i18n';
import type { UserProfile } from '../../lib/session';
import { setThemeChoice, themeChoice, themeChoices, type ThemeChoice } from '../../lib/theme';

const themeIcons: Record<ThemeChoice, IconName> = { light: 'sun', dark: 'moon', system: 'monitor' };

const itemClass = 'flex w-full items-center gap-2 px-3 py-2 text-left text-sm text-slate-700 data-focus:bg-indigo-50';

function ItemContent({ icon, label }: { icon: IconName; label: string }) {
  return (
    <>
      <Icon name={icon} className="size-4 text-slate-400" />
      {label}
    </>
  );
}

export function UserMenu({ user }: { user: UserProfile }) {
  useSignals();
  const [changingPassword, setChangingPassword] = useState(false);
  const initials = `${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.toUpperCase();
  return (
    <>
      <Menu>
        <MenuButton
          // The name starts from the initials the button shows, so speech input ("click A M") finds it.
          aria-label={initials ? t('header.userMenuOf', { initials }) : t('header.userMenu')}
          className="flex size-9 items-center justify-center rounded-full bg-indigo-100 text-sm font-semibold text-indigo-700 hover:bg-indigo-200"
        >
          {initials || <Icon name="user" className="size-4" />}
        </MenuButton>
        <MenuItems anchor="bottom end" className="z-40 w-56 rounded-lg border border-slate-200 bg-surface py-1 shadow-lg focus:outline-none">
          <div className="border-b border-slate-100 px-3 py-2 text-xs text-slate-500">{user.email}</div>
          <MenuItem>
            <Link href="/my-page" className={itemClass}>
              <ItemContent icon="user" label={t('header.myProfile')} />
            </Link>
          </MenuItem>
          <MenuItem>
            <button type="button" className={itemClass} onClick={() => setChangingPassword(true)}>
              <ItemContent icon="key" label={t('header.changePassword')} />
            </button>
          </MenuItem>
          <MenuItem>
            <Link href="/builder" className={itemClass}>
              <ItemContent icon="layout" label={t('header.layoutBuilder')} />
            </Link>
          </MenuItem>
          <div role="group" aria-labelledby="theme-choice" className="border-y border-slate-100 py-1">
            <div id="theme-choice" className="px-3 pt-1 pb-0.5 text-xs font-medium text-slate-500">
              {t('theme.label')}
            </div>
            {themeChoices.map((choice) => (
              <MenuItem key={choice}>
                <button
                  type="button"
                  // Headless UI's items are menuitems (which take no aria-checked): the chosen one is the current one.
                  aria-current={themeChoice.value === choice ? 'true' : undefined}
                  className={itemClass}
                  // Stays open: the person sees the scheme change and may try another.
                  onClick={(event) => {
                    event.preventDefault();
                    setThemeChoice(choice);
                  }}
                >
                  <ItemContent icon={themeIcons[choice]} label={t(`theme.${choice}`)} />
                  {themeChoice.value === choice && <Icon name="check" className="ml-auto size-4 text-indigo-600" />}
                </button>
              </MenuItem>
            ))}
          </div>
          <MenuItem>
            <Link href="/logout" className={itemClass}>
              <ItemContent icon="logout" label={t('header.signOut')} />
            </Link>
          </MenuItem>
        </MenuItems>
      </Menu>
      <OwnChangePasswordDialog open={changingPassword} onClose={() => setChangingPassword(false)} />
    </>
  );
}
