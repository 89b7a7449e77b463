import { Combobox, ComboboxButton, ComboboxInput, ComboboxOption, ComboboxOptions } from '@headlessui/react';
import { useLayoutEffect, useRef, type ReactNode, type UIEvent } from 'react';
import { t } from '../../lib/i18n';
import { Icon } from '../icons';
import { inputClass } from './inputs';
import type { PickerLoader, PickerOption } from './types';
import { usePickerPages } from './usePickerPages';

interface Shared {
  id: string;
  onBlur: () => void;
  invalid: boolean;
  /** The ids of what describes the input: its error message, and for several choices the chips. */
  describedBy?: string;
  load: PickerLoader;
}

type Choice =
  | { multiple: true; value: PickerOption[]; onChange: (value: PickerOption[]) => void }
  | { multiple?: false; value: PickerOption | null; onChange: (value: PickerOption | null) => void };

/**
 * The one combobox of the form machinery over a server-side list: it searches as the user
 * types and pages 30 options at a time as the list is scrolled. Every pick closes the list
 * and clears the typed text, for one choice or several, so the list never stays open over
 * the form's Save and Cancel (a click there would land on an option instead); a click
 * outside closes it without changing the choice.
 */
export function PickerCombobox(props: Shared & Choice) {
  const { id, onBlur, invalid, describedBy, load } = props;
  const pages = usePickerPages(load);
  const toggle = useRef<HTMLButtonElement>(null);
  const isOpen = useRef(false);
  const input = useRef<HTMLInputElement>(null);

  // Headless UI writes the input's aria-describedby from its own Description context, which
  // overrides the prop with nothing; the message is tied here so a screen reader reads it.
  useLayoutEffect(() => {
    if (describedBy) input.current?.setAttribute('aria-describedby', describedBy);
    else input.current?.removeAttribute('aria-describedby');
  });

  const onScroll = (event: UIEvent<HTMLElement>) => {
    const list = event.currentTarget;
    if (list.scrollTop + list.clientHeight >= list.scrollHeight - 24) pages.loadMore();
  };

  const picked = (value: PickerOption[] | PickerOption | null) => {
    if (props.multiple) props.onChange(value as PickerOption[]);
    else props.onChange(value as PickerOption | null);
    pages.setSearch('');
    // A single choice closes by itself; several choices keep the list open, so it is closed here.
    if (props.multiple && isOpen.current) toggle.current?.click();
  };

  return (
    // Not `immediate`: a form that opens with focus in its first field must not open this list (it
    // would cover the form and make the rest of the dialog inert); a click, typing or the button opens it.
    <Combobox
      multiple={props.multiple}
      value={props.value as never}
      by="id"
      onChange={picked}
      onClose={() => pages.setSearch('')}
    >
      {({ open }) => {
        isOpen.current = open;
        return (
          <>
            <div className="relative">
              <ComboboxInput
                ref={input}
                id={id}
                onClick={() => {
                  if (!open) toggle.current?.click();
                }}
                className={`${inputClass} pr-9`}
                placeholder={t('picker.search')}
                aria-invalid={invalid || undefined}
                displayValue={(option: PickerOption | PickerOption[] | null) =>
                  props.multiple || Array.isArray(option) ? pages.search : (option?.label ?? '')
                }
                onChange={(event) => pages.setSearch(event.target.value)}
                onFocus={() => {
                  if (pages.items.length === 0 && !pages.loading) pages.setSearch(pages.search);
                }}
                onBlur={onBlur}
              />
              <ComboboxButton
                ref={toggle}
                aria-label={t('picker.showOptions')}
                className="absolute inset-y-0 right-0 flex items-center px-2 text-slate-500"
              >
                <Icon name="chevronDown" className="size-4" />
              </ComboboxButton>
            </div>
            <ComboboxOptions
              anchor="bottom start"
              onScroll={onScroll}
              className="z-[60] max-h-60 w-(--input-width) overflow-y-auto rounded-lg border border-slate-200 bg-surface py-1 text-sm shadow-lg empty:invisible"
            >
              {pages.items.map((option) => (
                <ComboboxOption
                  key={option.id}
                  value={option}
                  className="group flex cursor-pointer items-center gap-2 px-3 py-2 data-focus:bg-indigo-50 data-selected:font-semibold"
                >
                  {props.multiple && <TickBox />}
                  {option.label}
                </ComboboxOption>
              ))}
              {pages.loading && <ListNote>{t('picker.loading')}</ListNote>}
              {!pages.loading && pages.failed && <ListNote failed>{t('table.connectionLost')}</ListNote>}
              {!pages.loading && !pages.failed && pages.items.length === 0 && <ListNote>{t('picker.noResults')}</ListNote>}
            </ComboboxOptions>
          </>
        );
      }}
    </Combobox>
  );
}

function TickBox() {
  return (
    <span className="flex size-4 shrink-0 items-center justify-center rounded border border-slate-400 text-indigo-700 group-data-selected:border-indigo-600">
      <Icon name="check" className="invisible size-3 group-data-selected:visible" />
    </span>
  );
}

function ListNote({ children, failed }: { children: ReactNode; failed?: boolean }) {
  return <div className={`px-3 py-2 ${failed ? 'text-red-600' : 'text-slate-500'}`}>{children}</div>;
}
