import { useSignals } from '@preact/signals-react/runtime';
import { errorMessage } from '../../lib/api';
import { t } from '../../lib/i18n';
import { StatusToggle } from '../StatusToggle';
import type { RowSwitch } from './types';

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
