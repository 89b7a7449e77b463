import { Combobox, ComboboxButton, ComboboxInput, ComboboxOption, ComboboxOptions } from '@headlessui/react';
import { useSignals } from '@preact/signals-react/runtime';
import { useRef, type UIEvent } from 'react';
import { t } from '../../lib/i18n';
import { IconButton } from '../Button';
import { Icon } from '../icons';
import { usePickerPages } from './AsyncPicker';
import { inputClass } from './inputs';
import type { ControlProps, PickerLoader, PickerOption } from './types';

/**
 * Several choices from a server-side list (a campaign's assets): the list
 * searches as the user types and pages 30 at a time like AsyncPicker; each
 * chosen option is ticked in the list and shown below as a chip that removes it.
 */
export function MultiPicker({
  id,
  value,
  onChange,
  onBlur,
  invalid,
  describedBy,
  load,
}: ControlProps<PickerOption[]> & { load: PickerLoader }) {
  useSignals();
  const chosen = value ?? [];
  const pages = usePickerPages(load);
  const toggle = useRef<HTMLButtonElement>(null);
  const chipsId = `${id}-chosen`;

  const onScroll = (event: UIEvent<HTMLElement>) => {
    const list = event.currentTarget;
    if (list.scrollTop + list.clientHeight >= list.scrollHeight - 24) pages.loadMore();
  };

  return (
    <div className="space-y-2">
      <Combobox multiple value={chosen} by="id" onChange={onChange} onClose={() => pages.setSearch('')}>
        {({ open }) => (
          <>
            <div className="relative">
              <ComboboxInput
                id={id}
                onClick={() => {
                  if (!open) toggle.current?.click();
                }}
                className={`${inputClass} pr-9`}
                placeholder={t('picker.search')}
                aria-invalid={invalid || undefined}
                aria-describedby={[describedBy, chosen.length > 0 ? chipsId : undefined].filter(Boolean).join(' ') || undefined}
                displayValue={() => pages.search}
                onChange={(event) => pages.setSearch(event.target.value)}
                onFocus={() => {
                  if (pages.items.length === 0 && !pages.loading) pages.setSearch(pages.search);
                }}
                onBlur={onBlur}
              />
              <ComboboxButton ref={toggle} aria-label={t('picker.showOptions')} className="absolute inset-y-0 right-0 flex items-center px-2 text-slate-500">
                <Icon name="chevronDown" className="size-4" />
              </ComboboxButton>
            </div>
            <ComboboxOptions
              anchor="bottom start"
              onScroll={onScroll}
              className="z-[60] max-h-60 w-(--input-width) overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 text-sm shadow-lg empty:invisible"
            >
              {pages.items.map((option) => (
                <ComboboxOption
                  key={option.id}
                  value={option}
                  className="group flex cursor-pointer items-center gap-2 px-3 py-2 data-focus:bg-indigo-50 data-selected:font-semibold"
                >
                  <span className="flex size-4 shrink-0 items-center justify-center rounded border border-slate-400 text-indigo-700 group-data-selected:border-indigo-600">
                    <Icon name="check" className="invisible size-3 group-data-selected:visible" />
                  </span>
                  {option.label}
                </ComboboxOption>
              ))}
              {pages.loading && <div className="px-3 py-2 text-slate-500">{t('picker.loading')}</div>}
              {!pages.loading && pages.failed && <div className="px-3 py-2 text-red-600">{t('table.connectionLost')}</div>}
              {!pages.loading && !pages.failed && pages.items.length === 0 && (
                <div className="px-3 py-2 text-slate-500">{t('picker.noResults')}</div>
              )}
            </ComboboxOptions>
          </>
        )}
      </Combobox>
      {chosen.length > 0 && (
        <ul id={chipsId} aria-label={t('picker.chosen')} className="flex flex-wrap gap-2">
          {chosen.map((option) => (
            <li key={option.id} className="inline-flex items-center gap-1 rounded-full bg-indigo-50 py-0.5 pr-0.5 pl-3 text-sm text-indigo-900">
              {option.label}
              <IconButton
                label={t('picker.removeChoice', { name: option.label })}
                onClick={() => onChange(chosen.filter((item) => item.id !== option.id))}
              >
                <Icon name="close" className="size-3.5" />
              </IconButton>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
