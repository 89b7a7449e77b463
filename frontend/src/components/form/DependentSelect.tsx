import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import { labelText, t, type Label } from '../../lib/i18n';
import { Select } from './inputs';
import { useLatestLoad } from './useLatestLoad';
import type { ChoiceOption, ControlProps } from './types';

type OptionsState = { status: 'idle' | 'loading' | 'ready' | 'failed'; options: ChoiceOption[] };

/**
 * A select whose options come from the server for another field's value (the
 * order positions of the chosen category). They load again when that value
 * changes; while it is empty only the empty choice is offered. A native select, not the
 * picker combobox: its few options need no search or paging, and it loads through the same
 * `useLatestLoad` as the pickers.
 */
export function DependentSelect({
  id,
  value,
  onChange,
  onBlur,
  invalid,
  describedBy,
  dependency,
  loadOptions,
  emptyOption,
}: ControlProps<string> & {
  dependency: unknown;
  loadOptions: (dependency: unknown, signal: AbortSignal) => Promise<ChoiceOption[]>;
  emptyOption: Label;
}) {
  useSignals();
  const [state, setState] = useState<OptionsState>({ status: 'idle', options: [] });
  const key = JSON.stringify(dependency ?? null);
  const { run, cancel } = useLatestLoad();
  useEffect(() => {
    const current = JSON.parse(key) as unknown;
    if (current === null || current === '') {
      cancel();
      setState({ status: 'idle', options: [] });
      return;
    }
    setState((previous) => ({ ...previous, status: 'loading' }));
    run(
      (signal) => loadOptions(current, signal),
      (options) => setState({ status: 'ready', options }),
      () => setState({ status: 'failed', options: [] }),
    );
  }, [key, loadOptions, run, cancel]);

  return (
    <>
      <Select
        id={id}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        aria-busy={state.status === 'loading'}
      >
        <option value="">{labelText(emptyOption)}</option>
        {state.options.map((option) => (
          <option key={option.value} value={option.value}>
            {labelText(option.label)}
          </option>
        ))}
      </Select>
      {state.status === 'failed' && <p className="mt-1 text-xs text-red-600">{t('table.connectionLost')}</p>}
    </>
  );
}
