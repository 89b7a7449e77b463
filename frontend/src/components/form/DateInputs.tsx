import { TextInput } from './inputs';
import type { ControlProps } from './types';

/** A calendar day as yyyy-MM-dd (the browser shows its own picker). */
export function DateInput({ id, value, onChange, onBlur, invalid, describedBy }: ControlProps<string>) {
  return (
    <TextInput
      id={id}
      type="date"
      value={value}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
    />
  );
}

/** A local date and time as yyyy-MM-ddTHH:mm; lib/dates turns it into the API's UTC instant. */
export function DateTimeInput({ id, value, onChange, onBlur, invalid, describedBy }: ControlProps<string>) {
  return (
    <TextInput
      id={id}
      type="datetime-local"
      value={value}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
    />
  );
}
