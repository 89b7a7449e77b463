import { useSignals } from '@preact/signals-react/runtime';
import { t } from '../../lib/i18n';
import { maskSubscriber, OPERATOR_CODES, type OperatorCode, type PhoneValue } from '../../lib/phone';
import { Select, TextInput } from './inputs';
import type { ControlProps } from './types';

/** Operator code dropdown plus the 7-digit number masked as `123 45 67`. */
export function PhoneInput({ id, value, onChange, onBlur, invalid, describedBy }: ControlProps<PhoneValue>) {
  useSignals();
  return (
    <div className="flex gap-2">
      <div className="w-24 shrink-0">
        <Select
          aria-label={t('phone.operatorCode')}
          value={value.code}
          onChange={(event) => onChange({ ...value, code: event.target.value as OperatorCode })}
        >
          {OPERATOR_CODES.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </Select>
      </div>
      <div className="min-w-0 flex-1">
        <TextInput
          id={id}
          type="tel"
          inputMode="numeric"
          autoComplete="off"
          placeholder="123 45 67"
          maxLength={9}
          value={value.number}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange({ ...value, number: maskSubscriber(event.target.value) })}
          onBlur={onBlur}
        />
      </div>
    </div>
  );
}
