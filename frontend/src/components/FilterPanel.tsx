import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useRef, useState } from 'react';
import { labelText, t, type Label } from '../lib/i18n';
import { FieldShell, Select, TextInput } from './form/inputs';

const FILTER_PAUSE_MS = 500;

export interface FilterField {
  /** The key in the URL and in the values object. */
  name: string;
  label: Label;
  kind?: 'text' | 'select' | 'date';
  /** For selects; an 'All' choice (empty value) is always offered first. */
  options?: { value: string; label: Label }[];
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
}: {
  fields: readonly FilterField[];
  values: Record<string, string>;
  onApply: (values: Record<string, string>) => void;
}) {
  useSignals();
  const idPrefix = useId();
  const [draft, setDraft] = useState(values);
  const lastReported = useRef(values);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    if (!sameValues(values, lastReported.current)) {
      lastReported.current = values;
      setDraft(values);
    }
  }, [values]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const change = (name: string, value: string) => {
    const next = { ...draft, [name]: value };
    setDraft(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      lastReported.current = next;
      onApply(next);
    }, FILTER_PAUSE_MS);
  };

  return (
    <div role="search" aria-label={t('filter.title')} className="grid gap-4 border-b border-slate-200 px-4 py-4 sm:grid-cols-2 lg:grid-cols-4">
      {fields.map((field) => {
        const id = `${idPrefix}-${field.name}`;
        const value = draft[field.name] ?? '';
        return (
          <FieldShell key={field.name} id={id} label={labelText(field.label)}>
            {field.kind === 'select' ? (
              <Select id={id} value={value} onChange={(event) => change(field.name, event.target.value)}>
                <option value="">{t('filter.all')}</option>
                {field.options?.map((option) => (
                  <option key={option.value} value={option.value}>
                    {labelText(option.label)}
                  </option>
                ))}
              </Select>
            ) : (
              <TextInput
                id={id}
                type={field.kind === 'date' ? 'date' : 'search'}
                value={value}
                onChange={(event) => change(field.name, event.target.value)}
              />
            )}
          </FieldShell>
        );
      })}
    </div>
  );
}
