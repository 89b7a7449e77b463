import type { ReactNode } from 'react';
import type { Label } from '../../lib/i18n';
import type { Schema } from '../../lib/validation';

export interface PickerOption {
  id: number;
  label: string;
}

/** Loads one page of a server-side picker; `search` is what the user typed. */
export type PickerLoader = (
  search: string,
  skip: number,
  take: number,
  signal: AbortSignal,
) => Promise<{ items: PickerOption[]; total: number }>;

export interface ControlProps<T> {
  id: string;
  value: T;
  onChange: (value: T) => void;
  onBlur: () => void;
  invalid: boolean;
  describedBy?: string;
}

interface BaseField<V> {
  name: keyof V & string;
  label: Label;
  /** Shown only while this holds (a promo-code version only while promo codes are on). */
  visibleWhen?: (values: V) => boolean;
  /** Other fields that a change of this one sets too (turning promo codes off clears the version). */
  updates?: (value: unknown, values: V) => Partial<V>;
  /**
   * Shown in a tab of this label: consecutive fields with a tab make one tab group, a tab per
   * label in the order they first appear (a campaign's Az, En and Ru name and description).
   */
  tab?: Label;
}

export interface ChoiceOption {
  value: string;
  label: Label;
}

/**
 * One input of a declared form. Values live in the form as the control needs
 * them (strings for selects, PhoneValue for phones, File | string | null for
 * images); the form's submit turns them into the API payload.
 */
export type FieldDef<V> =
  | (BaseField<V> & {
      kind: 'text' | 'email' | 'password' | 'number';
      placeholder?: string;
      autoComplete?: string;
      inputMode?: 'numeric' | 'decimal' | 'text';
      /** A 'Copy from …' button on this field's tab fills it from that field (En and Ru from Az). */
      copyFrom?: keyof V & string;
    })
  | (BaseField<V> & { kind: 'textarea'; rows?: number; copyFrom?: keyof V & string })
  | (BaseField<V> & { kind: 'select' | 'radio'; options: ChoiceOption[] })
  /**
   * Several of a fixed set of choices (a webhook's events), a checkbox each; the value is the chosen
   * options' values in the options' order. `showValue` writes each value beside its label (an
   * event's code, which integrators know it by).
   */
  | (BaseField<V> & { kind: 'checkboxes'; options: ChoiceOption[]; showValue?: boolean })
  | (BaseField<V> & { kind: 'checkbox' | 'switch' | 'phone' | 'image' | 'date' | 'datetime' })
  | (BaseField<V> & { kind: 'picker'; load: PickerLoader })
  /** Several choices from a server-side list (PickerOption[]): searchable, 30 a page, chosen ones as removable chips. */
  | (BaseField<V> & { kind: 'multiPicker'; load: PickerLoader })
  /**
   * A select whose options depend on another field (a category's order positions): they load
   * again whenever `dependsOn` changes; none load while it is empty. `emptyOption` is the choice
   * of no value ('Last position').
   */
  | (BaseField<V> & {
      kind: 'dependentSelect';
      dependsOn: keyof V & string;
      loadOptions: (dependency: unknown, signal: AbortSignal) => Promise<ChoiceOption[]>;
      emptyOption: Label;
    })
  | (BaseField<V> & {
      kind: 'rows';
      /** The inputs of one row; their names are keys of the row object. */
      fields: FieldDef<Record<string, unknown>>[];
      newRow: () => Record<string, unknown>;
      addLabel?: Label;
      /** What one row is called, numbered in its legend: 'City' gives "City 1", "City 2". */
      rowLabel: Label;
      /** Marks the inputs of a row that break these rules while the group's error shows. */
      rowSchema?: Schema<Record<string, unknown>>;
    })
  | (BaseField<V> & { kind: 'custom'; render: (props: ControlProps<unknown>) => ReactNode });
