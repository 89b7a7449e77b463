import { useCallback, useMemo, useState, type FormEvent } from 'react';
import { translateText } from '../../lib/i18n';
import { hasErrors, validate, type Errors, type Schema } from '../../lib/validation';

export interface FormApi<V extends object> {
  values: V;
  /** Every current error, shown or not (for disabling a submit button). */
  errors: Errors<V>;
  isValid: boolean;
  setValue: <K extends keyof V>(field: K, value: V[K]) => void;
  touch: (field: keyof V & string) => void;
  /** The error to show: a rule's once the field was left or a submit was tried, else the server's until the field changes. */
  errorFor: (field: keyof V & string) => string | undefined;
  /** Messages the server gave per field after a refused submit. */
  setServerErrors: (errors: Errors<V>) => void;
  /**
   * A refused submit: the server's `message` for the form's alert (unless a
   * field shows that same message), its `errors` under the fields they name
   * (see serverFieldErrors). A message is cleared
   * from a field when the user changes it, and the alert once every field it
   * concerned has changed; an alert that concerns no field, or carries keys no
   * field takes, stays until the next submit.
   */
  refuse: (message: string, errors: Record<string, string>, fieldNames: readonly (keyof V & string)[], aliases?: Partial<Record<string, keyof V & string>>) => void;
  /** The form's alert after a refused submit: the server's message and any of its `errors` no field took. */
  serverMessage: string | null;
  /** Forgets a refusal (a new submit is on its way). */
  clearServerMessage: () => void;
  reset: (values?: V) => void;
  handleSubmit: (onValid: (values: V) => void | Promise<void>) => (event: FormEvent) => void;
}

/**
 * Puts the server's `errors` (keyed by API field) on the form's fields: a key
 * matches a field of the same name (any case), a row key such as
 * `cities[1].latitude` matches its group `cities`, and `aliases` name the rest
 * (`cityId` → `cities`). Keys that match nothing are left to the form's message.
 */
export function serverFieldErrors<V extends object>(
  errors: Record<string, string>,
  fieldNames: readonly (keyof V & string)[],
  aliases: Partial<Record<string, keyof V & string>> = {},
): Errors<V> {
  const byLowerName = new Map(fieldNames.map((name) => [name.toLowerCase(), name]));
  const lowerAliases = new Map(Object.entries(aliases).map(([key, name]) => [key.toLowerCase(), name]));
  const mapped: Errors<V> = {};
  for (const [key, message] of Object.entries(errors)) {
    const lower = key.toLowerCase();
    const field = byLowerName.get(lower) ?? lowerAliases.get(lower) ?? byLowerName.get(lower.split(/[[.]/)[0]);
    if (field && !mapped[field]) mapped[field] = message;
  }
  return mapped;
}

/** The server's `errors` split into the fields' messages and the keys no field takes (e.g. `cities[0].address` without a `cities` field). */
export function splitServerErrors<V extends object>(
  errors: Record<string, string>,
  fieldNames: readonly (keyof V & string)[],
  aliases: Partial<Record<string, keyof V & string>> = {},
): { fields: Errors<V>; unmatched: string[] } {
  const fields = serverFieldErrors(errors, fieldNames, aliases);
  const taken = new Set(Object.values(fields));
  const unmatched = Object.entries(errors)
    .filter(([key, message]) => Object.keys(serverFieldErrors({ [key]: message }, fieldNames, aliases)).length === 0)
    .map(([, message]) => message)
    .filter((message) => !taken.has(message));
  return { fields, unmatched: [...new Set(unmatched)] };
}

interface Refusal<V> {
  message: string;
  /** The fields the refusal named; the alert goes once none of them still shows its message. */
  concerns: (keyof V & string)[];
  unmatched: string[];
}

export function useForm<V extends object>(initialValues: V, schema: Schema<V>): FormApi<V> {
  const [values, setValues] = useState(initialValues);
  const [touched, setTouched] = useState<Partial<Record<keyof V, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Errors<V>>({});
  const [refusal, setRefusal] = useState<Refusal<V> | null>(null);
  const errors = useMemo(() => validate(schema, values), [schema, values]);

  const setValue = useCallback(<K extends keyof V>(field: K, value: V[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setServerErrors((current) => {
      if (!(field in current)) return current;
      const rest = { ...current };
      delete rest[field as keyof V & string];
      return rest;
    });
  }, []);

  const touch = useCallback((field: keyof V & string) => {
    setTouched((current) => (current[field] ? current : { ...current, [field]: true }));
  }, []);

  const reset = useCallback(
    (next?: V) => {
      setValues(next ?? initialValues);
      setTouched({});
      setSubmitted(false);
      setServerErrors({});
      setRefusal(null);
    },
    [initialValues],
  );

  const refuse = useCallback(
    (message: string, raw: Record<string, string>, fieldNames: readonly (keyof V & string)[], aliases?: Partial<Record<string, keyof V & string>>) => {
      const { fields, unmatched } = splitServerErrors(raw, fieldNames, aliases);
      setServerErrors(fields);
      // A message that a field already shows under itself is said once, there, not again in the alert.
      const shownAtField = new Set<string>(Object.values(fields).filter((text): text is string => typeof text === 'string'));
      setRefusal({
        message: shownAtField.has(message) ? '' : message,
        concerns: Object.keys(fields) as (keyof V & string)[],
        unmatched: unmatched.filter((text) => text !== message),
      });
    },
    [],
  );
  const clearServerMessage = useCallback(() => setRefusal(null), []);
  const refusalShows =
    refusal !== null && (refusal.concerns.length === 0 || refusal.unmatched.length > 0 || refusal.concerns.some((field) => serverErrors[field] !== undefined));
  const serverMessage = (refusalShows && [refusal.message, ...refusal.unmatched].filter(Boolean).join(' ')) || null;

  return {
    values,
    errors,
    isValid: !hasErrors(errors),
    setValue,
    touch,
    // A rule's message is worded as the server's (English); the server's arrive translated (lib/api).
    errorFor: (field) => {
      const ruleMessage = touched[field] || submitted ? errors[field] : undefined;
      return ruleMessage !== undefined ? translateText(ruleMessage) : serverErrors[field];
    },
    setServerErrors,
    refuse,
    serverMessage,
    clearServerMessage,
    reset,
    handleSubmit: (onValid) => (event) => {
      event.preventDefault();
      setSubmitted(true);
      if (!hasErrors(errors)) void onValid(values);
    },
  };
}
