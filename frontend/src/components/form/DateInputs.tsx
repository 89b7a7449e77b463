import { TextInput } from './inputs';
import type { ControlProps } from './types';

function NativeDateInput({ type, id, value, onChange, onBlur, invalid, describedBy }: ControlProps<string> & { type: 'date' | 'datetime-local' }) {
  return (
    <TextInput
      id={id}
      type={type}
      value={value}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
    />
  );
}

/** A calendar day as yyyy-MM-dd (the browser shows its own picker). */
export const DateInput = (props: ControlProps<string>) => <NativeDateInput {...props} type="date" />;

/** A local date and time as yyyy-MM-ddTHH:mm; lib/dates turns it into the API's UTC instant. */
export const DateTimeInput = (props: ControlProps<string>) => <NativeDateInput {...props} type="datetime-local" />;
