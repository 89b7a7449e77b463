import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useRef, useState } from 'react';
import { formatDate, localDayEnd, localDayStart } from '../lib/dates';
import { labelText, t, type Label } from '../lib/i18n';
import { AsyncPicker } from './form/AsyncPicker';
import { DateInput } from './form/DateInputs';
import { errorId, FieldShell, Select, TextInput } from './form/inputs';
import type { ServerPicker } from './form/listPicker';
import type { PickerOption } from './form/types';
import { Icon } from './icons';

const FILTER_PAUSE_MS = 500;

export interface FilterField {
  /** The key in the URL and in the values object. */
  name: string;
  label: Label;
  /** 'number': a whole number (a discount); anything but digits is dropped as it is typed, so the API is never asked with letters. */
  kind?: 'text' | 'select' | 'date' | 'number' | 'picker';
  /** For selects; an 'All' choice (empty value) is always offered first. */
  options?: { value: string; label: Label }[];
  /** A select whose choices come from the server (the assets); loaded once, then remembered for the chips. */
  loadOptions?: () => Promise<{ value: string; label: string }[]>;
  /**
   * For 'picker': a server-side list searched as the user types, 30 a page (`serverPicker('partner/filter',
   * 'partner')`); the value is the chosen id, and the chip names it.
   */
  picker?: ServerPicker;
  /** A 'date' that ends a range: a day before the named field's day gets a message in the panel and is not sent. */
  notBefore?: string;
  /**
   * A 'date' bound of a range, sent as an instant of the browser's day, as exports send days: 'start' its
   * local midnight, 'end' the midnight after it. Without it the day goes as typed (a UTC day on the server).
   */
  dayBound?: 'start' | 'end';
}

/** The values as the API takes them: range bounds as instants of the browser's days (`dayBound`). */
export function apiFilterValues(fields: readonly FilterField[], values: Record<string, string>): Record<string, string> {
  const bound = (field: FilterField | undefined, value: string) =>
    !value || !field?.dayBound ? value : field.dayBound === 'start' ? localDayStart(value) : localDayEnd(value);
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, bound(fields.find((field) => field.name === name), value)]));
}

/** The message of each range end that falls before its start (yyyy-MM-dd strings order like their days). */
export function rangeErrors(fields: readonly FilterField[], values: Record<string, string>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const start = fields.find((other) => other.name === field.notBefore);
    const value = values[field.name];
    const startValue = start ? values[start.name] : '';
    if (start && value && startValue && value < startValue) {
      errors[field.name] = t('filter.notBefore', { label: labelText(field.label), other: labelText(start.label) });
    }
  }
  return errors;
}

// The loaded choices of each `loadOptions` filter, so a chip can name the chosen one.
const loadedOptions = new WeakMap<FilterField['loadOptions'] & object, { value: string; label: string }[]>();
const optionsVersion = signal(0);

function useLoadedOptions(field: FilterField): { value: string; label: Label }[] | undefined {
  useSignals();
  void optionsVersion.value;
  const load = field.loadOptions;
  useEffect(() => {
    if (!load || loadedOptions.has(load)) return;
    let live = true;
    load()
      .then((options) => {
        loadedOptions.set(load, options);
        if (live) optionsVersion.value += 1;
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [load]);
  if (!load) return field.options;
  return loadedOptions.get(load)?.map((option) => ({ value: option.value, label: { raw: option.label } }));
}

/** A select filter: its choices declared, or loaded from the server. */
function FilterSelect({ id, field, value, onChange }: { id: string; field: FilterField; value: string; onChange: (value: string) => void }) {
  useSignals();
  const options = useLoadedOptions(field);
  return (
    <Select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
      <option value="">{t('filter.all')}</option>
      {/* A value from the URL stays selectable while the choices load. */}
      {value && !options?.some((option) => option.value === value) && <option value={value}>{value}</option>}
      {options?.map((option) => (
        <option key={option.value} value={option.value}>
          {labelText(option.label)}
        </option>
      ))}
    </Select>
  );
}

// The labels of ids chosen in each picker filter (or named by its `describe`), so the picker and its chip show names.
const pickedLabels = new WeakMap<ServerPicker, Map<string, string>>();
const describing = new WeakMap<ServerPicker, Set<string>>();

function pickedLabel(picker: ServerPicker, id: string): string | undefined {
  return pickedLabels.get(picker)?.get(id);
}

function rememberLabel(picker: ServerPicker, id: string, label: string) {
  const labels = pickedLabels.get(picker) ?? new Map<string, string>();
  pickedLabels.set(picker, labels);
  if (labels.get(id) === label) return;
  labels.set(id, label);
  optionsVersion.value += 1;
}

/** Asks each picker filter's `describe` once for a chosen id it cannot name yet (an id from a shared link). */
function useDescribedPicks(fields: readonly FilterField[], values: Record<string, string>) {
  const key = JSON.stringify(fields.filter((field) => field.picker && values[field.name]).map((field) => [field.name, values[field.name]]));
  useEffect(() => {
    for (const field of fields) {
      const { picker } = field;
      const id = values[field.name];
      if (!picker || !id || pickedLabel(picker, id) !== undefined) continue;
      const pending = describing.get(picker) ?? new Set<string>();
      describing.set(picker, pending);
      if (pending.has(id)) continue;
      pending.add(id);
      // Not aborted on unmount: the name is remembered for the next render of the chip or the picker.
      picker.describe(id, new AbortController().signal).then(
        (label) => rememberLabel(picker, id, label),
        () => pending.delete(id),
      );
    }
    // `key` names every value this effect reads (the fields and their values), so it runs when one changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
}

/** A picker filter: search as you type, the chosen record's id as the value. */
function FilterPicker({
  id,
  picker,
  value,
  onChange,
}: {
  id: string;
  picker: ServerPicker;
  value: string;
  onChange: (value: string) => void;
}) {
  useSignals();
  void optionsVersion.value;
  const chosen: PickerOption | null = value ? { id: Number(value), label: pickedLabel(picker, value) ?? '' } : null;
  return (
    <AsyncPicker
      id={id}
      value={chosen}
      load={picker.load}
      invalid={false}
      onBlur={() => undefined}
      // Emptying the input chooses nothing, which is 'All'.
      onChange={(option) => {
        if (option) rememberLabel(picker, String(option.id), option.label);
        onChange(option ? String(option.id) : '');
      }}
    />
  );
}

const sameValues = (a: Record<string, string>, b: Record<string, string>) => {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => (a[key] ?? '') === (b[key] ?? ''));
};

/**
 * Filter inputs that report their values 500 ms after the last change. Values
 * that change from outside (back button, a shared link) replace the draft.
 */
export function FilterPanel({
  fields,
  values,
  onApply,
  inDialog = false,
}: {
  fields: readonly FilterField[];
  values: Record<string, string>;
  onApply: (values: Record<string, string>) => void;
  /** In a modal ('Merchant filter'): the fields stacked, and a change still pending when it closes is applied then. */
  inDialog?: boolean;
}) {
  useSignals();
  const idPrefix = useId();
  const [draft, setDraft] = useState(values);
  const errors = rangeErrors(fields, draft);
  useDescribedPicks(fields, draft);
  const lastReported = useRef(values);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    if (!sameValues(values, lastReported.current)) {
      lastReported.current = values;
      setDraft(values);
    }
  }, [values]);

  const pending = useRef<Record<string, string> | null>(null);
  const apply = useRef(onApply);
  apply.current = onApply;
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      if (inDialog && pending.current) apply.current(pending.current);
    },
    [inDialog],
  );

  const change = (name: string, value: string) => {
    const next = { ...draft, [name]: value };
    setDraft(next);
    clearTimeout(timer.current);
    // A reversed range stays in the panel with its message, unsent, until it is mended.
    if (Object.keys(rangeErrors(fields, next)).length > 0) {
      pending.current = null;
      return;
    }
    pending.current = next;
    timer.current = setTimeout(() => {
      pending.current = null;
      lastReported.current = next;
      onApply(next);
    }, FILTER_PAUSE_MS);
  };

  return (
    <div
      role="search"
      aria-label={t('filter.title')}
      className={inDialog ? 'grid gap-4' : 'grid gap-4 border-b border-slate-200 px-4 py-4 sm:grid-cols-2 lg:grid-cols-4'}
    >
      {fields.map((field) => {
        const id = `${idPrefix}-${field.name}`;
        const value = draft[field.name] ?? '';
        const error = errors[field.name];
        return (
          <FieldShell key={field.name} id={id} label={labelText(field.label)} error={error}>
            {field.kind === 'select' ? (
              <FilterSelect id={id} field={field} value={value} onChange={(next) => change(field.name, next)} />
            ) : field.kind === 'picker' && field.picker ? (
              <FilterPicker id={id} picker={field.picker} value={value} onChange={(next) => change(field.name, next)} />
            ) : field.kind === 'date' ? (
              <DateInput
                id={id}
                label={labelText(field.label)}
                value={value}
                invalid={Boolean(error)}
                describedBy={error ? errorId(id) : undefined}
                onChange={(next) => change(field.name, next)}
                onBlur={() => {}}
              />
            ) : (
              <TextInput
                id={id}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? errorId(id) : undefined}
                type="search"
                inputMode={field.kind === 'number' ? 'numeric' : undefined}
                value={value}
                onChange={(event) => change(field.name, field.kind === 'number' ? event.target.value.replace(/\D/g, '') : event.target.value)}
              />
            )}
          </FieldShell>
        );
      })}
    </div>
  );
}

/** The applied filters, by their labels and shown values (a select's option label, not its value). */
export function activeFilters(fields: readonly FilterField[], values: Record<string, string>): { name: string; label: string; value: string }[] {
  void optionsVersion.value; // chips name a loaded choice once it has loaded
  return fields
    .filter((field) => values[field.name])
    .map((field) => {
      const raw = values[field.name];
      if (field.picker) return { name: field.name, label: labelText(field.label), value: pickedLabel(field.picker, raw) ?? raw };
      // A day reads as the screens show days (dd-MM-yyyy), not as the input's value.
      if (field.kind === 'date') return { name: field.name, label: labelText(field.label), value: formatDate(raw) || raw };
      const choices = field.loadOptions ? loadedOptions.get(field.loadOptions)?.map((o) => ({ value: o.value, label: { raw: o.label } as Label })) : field.options;
      const option = choices?.find((candidate) => candidate.value === raw);
      return { name: field.name, label: labelText(field.label), value: option ? labelText(option.label) : raw };
    });
}

/**
 * The applied filters above the table, each removable, and Clear filters: a
 * filter still narrows the list while its panel is hidden, and this says so.
 */
export function FilterChips({
  fields,
  values,
  onRemove,
  onClear,
}: {
  fields: readonly FilterField[];
  values: Record<string, string>;
  onRemove: (name: string) => void;
  onClear: () => void;
}) {
  useSignals();
  useDescribedPicks(fields, values);
  const applied = activeFilters(fields, values);
  if (applied.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-4 py-3">
      <ul aria-label={t('filter.applied')} className="flex flex-wrap items-center gap-2">
        {applied.map((filter) => (
          <li key={filter.name}>
            <button
              type="button"
              onClick={() => onRemove(filter.name)}
              aria-label={t('filter.remove', { label: filter.label, value: filter.value })}
              className="inline-flex max-w-64 items-center gap-1 rounded-full border border-indigo-200 bg-indigo-50 py-0.5 pr-1.5 pl-2.5 text-xs text-indigo-800 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              <span className="truncate">
                {filter.label}: <span className="font-semibold">{filter.value}</span>
              </span>
              <Icon name="close" className="size-3.5 shrink-0" />
            </button>
          </li>
        ))}
      </ul>
      <button type="button" onClick={onClear} className="text-xs font-medium text-indigo-700 underline-offset-2 hover:underline">
        {t('filter.clear')}
      </button>
    </div>
  );
}
