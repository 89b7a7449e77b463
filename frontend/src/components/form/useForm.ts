import { useCallback, useMemo, useState, type FormEvent } from 'react';
import { hasErrors, validate, type Errors, type Schema } from '../../lib/validation';

export interface FormApi<V extends object> {
  values: V;
  /** Every current error, shown or not (for disabling a submit button). */
  errors: Errors<V>;
  isValid: boolean;
  setValue: <K extends keyof V>(field: K, value: V[K]) => void;
  touch: (field: keyof V & string) => void;
  /** The error to show: only once the field was left or a submit was tried. */
  errorFor: (field: keyof V & string) => string | undefined;
  reset: (values?: V) => void;
  handleSubmit: (onValid: (values: V) => void | Promise<void>) => (event: FormEvent) => void;
}

export function useForm<V extends object>(initialValues: V, schema: Schema<V>): FormApi<V> {
  const [values, setValues] = useState(initialValues);
  const [touched, setTouched] = useState<Partial<Record<keyof V, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const errors = useMemo(() => validate(schema, values), [schema, values]);

  const setValue = useCallback(<K extends keyof V>(field: K, value: V[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
  }, []);

  const touch = useCallback((field: keyof V & string) => {
    setTouched((current) => (current[field] ? current : { ...current, [field]: true }));
  }, []);

  const reset = useCallback(
    (next?: V) => {
      setValues(next ?? initialValues);
      setTouched({});
      setSubmitted(false);
    },
    [initialValues],
  );

  return {
    values,
    errors,
    isValid: !hasErrors(errors),
    setValue,
    touch,
    errorFor: (field) => (touched[field] || submitted ? errors[field] : undefined),
    reset,
    handleSubmit: (onValid) => (event) => {
      event.preventDefault();
      setSubmitted(true);
      if (!hasErrors(errors)) void onValid(values);
    },
  };
}
