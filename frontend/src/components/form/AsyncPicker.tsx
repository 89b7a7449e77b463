import { useSignals } from '@preact/signals-react/runtime';
import { PickerCombobox } from './PickerCombobox';
import type { ControlProps, PickerLoader, PickerOption } from './types';

export { PICKER_PAGE_SIZE } from './usePickerPages';

/** One choice from a server-side list (a merchant's partner), through the shared combobox. */
export function AsyncPicker({ value, ...props }: ControlProps<PickerOption | null> & { load: PickerLoader }) {
  useSignals();
  return <PickerCombobox {...props} value={value ?? null} />;
}
