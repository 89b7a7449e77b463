import { useSignals } from '@preact/signals-react/runtime';
import { errorMessage } from '../../lib/api';
import { t } from '../../lib/i18n';
import { StatusToggle } from '../StatusToggle';
import { useState } from 'react';
import { Select } from '../form/inputs';
import type { RowChoice, RowSwitch } from './types';

/** A declared column switch (`ColumnDef.switch`): calls, then the list reloads and a toast says what changed. */
export function RowSwitchCell<Row>({
  row,
  spec,
  rowLabel,
  onDone,
  onFail,
}: {
  row: Row;
  spec: RowSwitch<Row>;
  rowLabel: string;
  onDone: (confirmation: string) => void;
  onFail: (message: string) => void;
}) {
  useSignals();
  return (
    <StatusToggle
      active={spec.isOn(row)}
      label={`${t(spec.label)}: ${rowLabel}`}
      words={{ on: t(spec.on), off: t(spec.off) }}
      onToggle={async (next) => {
        try {
          await spec.call(row, next);
          onDone(spec.announce(row, next));
        } catch (error) {
          onFail(errorMessage(error));
        }
      }}
    />
  );
}

/** A declared column select (`ColumnDef.choice`): calls on change, then the list reloads and a toast says what changed. */
export function RowChoiceCell<Row>({
  row,
  spec,
  rowLabel,
  onDone,
  onFail,
}: {
  row: Row;
  spec: RowChoice<Row>;
  rowLabel: string;
  onDone: (confirmation: string) => void;
  onFail: (message: string) => void;
}) {
  useSignals();
  const [busy, setBusy] = useState(false);
  return (
    <Select
      aria-label={`${t(spec.label)}: ${rowLabel}`}
      value={spec.value(row)}
      disabled={busy}
      className="w-auto py-1 text-sm"
      onChange={async (event) => {
        const next = event.target.value;
        setBusy(true);
        try {
          await spec.call(row, next);
          onDone(spec.announce(row, next));
        } catch (error) {
          onFail(errorMessage(error));
        } finally {
          setBusy(false);
        }
      }}
    >
      {spec.options.map((option) => (
        <option key={option.value} value={option.value}>
          {t(option.label)}
        </option>
      ))}
    </Select>
  );
}
