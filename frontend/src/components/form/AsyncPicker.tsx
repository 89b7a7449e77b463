import { Combobox, ComboboxButton, ComboboxInput, ComboboxOption, ComboboxOptions } from '@headlessui/react';
import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useRef, useState, type UIEvent } from 'react';
import { t } from '../../lib/i18n';
import { Icon } from '../icons';
import { inputClass } from './inputs';
import type { ControlProps, PickerLoader, PickerOption } from './types';

export const PICKER_PAGE_SIZE = 30;
const SEARCH_PAUSE_MS = 300;

interface PickerState {
  items: PickerOption[];
  total: number;
  loading: boolean;
  failed: boolean;
}

/**
 * Pages through a server-side list 30 items at a time: the first page loads
 * when the picker is first used or the search changes, the next one when the
 * list is scrolled to its end.
 */
export function usePickerPages(load: PickerLoader) {
  const [state, setState] = useState<PickerState>({ items: [], total: 0, loading: false, failed: false });
  const [search, setSearch] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);

  const fetchPage = useCallback(
    (term: string, skip: number) => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      setState((previous) => ({ ...previous, loading: true, failed: false }));
      load(term, skip, PICKER_PAGE_SIZE, current.signal)
        .then(({ items, total }) =>
          setState((previous) => ({
            items: skip === 0 ? items : [...previous.items, ...items],
            total,
            loading: false,
            failed: false,
          })),
        )
        .catch(() => {
          if (!current.signal.aborted) setState((previous) => ({ ...previous, loading: false, failed: true }));
        });
    },
    [load],
  );

  useEffect(() => {
    if (search === null) return;
    const timer = setTimeout(() => fetchPage(search, 0), search ? SEARCH_PAUSE_MS : 0);
    return () => clearTimeout(timer);
  }, [search, fetchPage]);

  useEffect(() => () => controller.current?.abort(), []);

  const loadMore = () => {
    if (!state.loading && state.items.length < state.total) fetchPage(search ?? '', state.items.length);
  };

  return { ...state, search: search ?? '', setSearch, loadMore };
}

export function AsyncPicker({
  id,
  value,
  onChange,
  onBlur,
  invalid,
  describedBy,
  load,
}: ControlProps<PickerOption | null> & { load: PickerLoader }) {
  useSignals();
  const pages = usePickerPages(load);
  const toggle = useRef<HTMLButtonElement>(null);

  const onScroll = (event: UIEvent<HTMLElement>) => {
    const list = event.currentTarget;
    if (list.scrollTop + list.clientHeight >= list.scrollHeight - 24) pages.loadMore();
  };

  return (
    // Not `immediate`: a form that opens with focus in its first field must not open this list (it
    // would cover the form and make the rest of the dialog inert); a click, typing or the button opens it.
    <Combobox value={value} by="id" onChange={onChange} onClose={() => pages.setSearch('')}>
      {({ open }) => (
        <>
      <div className="relative">
        <ComboboxInput
          onClick={() => {
            if (!open) toggle.current?.click();
          }}
          id={id}
          className={`${inputClass} pr-9`}
          placeholder={t('picker.search')}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          displayValue={(option: PickerOption | null) => option?.label ?? ''}
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
            className="cursor-pointer px-3 py-2 data-focus:bg-indigo-50 data-selected:font-semibold"
          >
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
  );
}
