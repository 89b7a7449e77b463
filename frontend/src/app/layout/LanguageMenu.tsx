import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { useSignals } from '@preact/signals-react/runtime';
import { Icon } from '../../components/icons';
import { contentLanguage, contentLanguages, setContentLanguage, setUiLanguage, t, uiLanguage, uiLanguages } from '../../lib/i18n';

const menuItems = 'z-40 w-44 rounded-lg border border-slate-200 bg-surface py-1 text-sm shadow-lg focus:outline-none';
const menuItem = 'flex w-full items-center justify-between px-3 py-2 text-left data-focus:bg-indigo-50';

/** UI language (remembered) and the content language sent with list reads. */
export function LanguageMenu() {
  useSignals();
  const current = uiLanguages.find((language) => language.code === uiLanguage.value) ?? uiLanguages[0];
  return (
    <div className="flex items-center gap-2">
      <Menu>
        <MenuButton
          aria-label={`${t('header.language')}: ${current.label}`}
          className="inline-flex items-center gap-1.5 rounded-lg px-2 py-1.5 text-sm text-slate-600 hover:bg-slate-100"
        >
          <Icon name="globe" className="size-4" />
          <span className="hidden sm:inline">{current.label}</span>
        </MenuButton>
        <MenuItems anchor="bottom end" className={menuItems}>
          {uiLanguages.map((language) => (
            <MenuItem key={language.code}>
              <button type="button" lang={language.code} className={menuItem} onClick={() => void setUiLanguage(language.code)}>
                {language.label}
                {language.code === current.code && <Icon name="check" className="size-4 text-indigo-600" />}
              </button>
            </MenuItem>
          ))}
        </MenuItems>
      </Menu>
      <select
        aria-label={t('header.contentLanguage')}
        title={t('header.contentLanguage')}
        className="rounded-lg border border-slate-200 bg-surface px-2 py-1 text-sm text-slate-600"
        value={contentLanguage.value}
        onChange={(event) => setContentLanguage(Number(event.target.value))}
      >
        {contentLanguages.map((language) => (
          <option key={language.id} value={language.id}>
            {language.label}
          </option>
        ))}
      </select>
    </div>
  );
}
