import { useSignals } from '@preact/signals-react/runtime';
import { t } from '../../lib/i18n';
import { IconButton } from '../Button';
import { Icon } from '../icons';
import { PickerCombobox } from './PickerCombobox';
import type { ControlProps, PickerLoader, PickerOption } from './types';

/**
 * Several choices from a server-side list (a campaign's assets) through the shared combobox:
 * each chosen option is ticked in the list and shown below as a chip that removes it.
 */
export function MultiPicker({ id, value, onChange, describedBy, ...props }: ControlProps<PickerOption[]> & { load: PickerLoader }) {
  useSignals();
  const chosen = value ?? [];
  const chipsId = `${id}-chosen`;
  return (
    <div className="space-y-2">
      <PickerCombobox
        {...props}
        id={id}
        multiple
        value={chosen}
        onChange={onChange}
        describedBy={[describedBy, chosen.length > 0 ? chipsId : undefined].filter(Boolean).join(' ') || undefined}
      />
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
