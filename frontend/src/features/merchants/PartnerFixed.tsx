import { useSignals } from '@preact/signals-react/runtime';
import { TextInput } from '../../components/form/inputs';
import type { ControlProps, PickerOption } from '../../components/form/types';
import { t } from '../../lib/i18n';

/** The edit form's partner: shown, not changeable (a merchant stays with its partner), and why. */
function PartnerFixedInput({ id, value, describedBy }: ControlProps<unknown>) {
  useSignals();
  const hintId = `${id}-hint`;
  return (
    <>
      <TextInput id={id} value={(value as PickerOption | null)?.label ?? ''} disabled aria-describedby={[hintId, describedBy].filter(Boolean).join(' ')} />
      <p id={hintId} className="mt-1 text-xs text-slate-600">
        {t('merchants.partnerFixed')}
      </p>
    </>
  );
}

export const PartnerFixed = (props: ControlProps<unknown>) => <PartnerFixedInput {...props} />;
