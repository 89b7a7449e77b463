import { useSignals } from '@preact/signals-react/runtime';
import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { TAB_CLASS } from '../tabs';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { labelText, t } from '../../lib/i18n';
import type { PhoneValue } from '../../lib/phone';
import { validate } from '../../lib/validation';
import { Button, IconButton } from '../Button';
import { Icon } from '../icons';
import { DateInput, DateTimeInput } from './DateInputs';
import { DependentSelect } from './DependentSelect';
import { ImagePicker, type ImageValue } from './ImagePicker';
import { errorId, FieldShell, inputClass, labelId, Select, TextArea, TextInput } from './inputs';
import { PhoneInput } from './PhoneInput';
import type { ControlProps, FieldDef, PickerOption } from './types';
import type { FormApi } from './useForm';

type AnyField = FieldDef<Record<string, unknown>>;

// The combobox (and its positioning library) loads only when a form has a picker, keeping sign-in light.
const AsyncPicker = lazy(() => import('./AsyncPicker').then((module) => ({ default: module.AsyncPicker })));
const MultiPicker = lazy(() => import('./MultiPicker').then((module) => ({ default: module.MultiPicker })));

/** Renders one declared field's control; `value` is whatever the form holds for it, `values` the whole form (or row). */
function FieldControl({ field, control, values }: { field: AnyField; control: ControlProps<unknown>; values: Record<string, unknown> }) {
  const { id, value, onChange, onBlur, invalid, describedBy } = control;
  const common = { id, onBlur, 'aria-invalid': invalid || undefined, 'aria-describedby': describedBy };
  switch (field.kind) {
    case 'text':
    case 'email':
    case 'password':
    case 'number':
      return (
        <TextInput
          {...common}
          type={field.kind}
          placeholder={field.placeholder}
          autoComplete={field.autoComplete}
          inputMode={field.inputMode}
          value={String(value ?? '')}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    case 'textarea':
      return <TextArea {...common} rows={field.rows ?? 4} value={String(value ?? '')} onChange={(event) => onChange(event.target.value)} />;
    case 'select':
      return (
        <Select {...common} value={String(value ?? '')} onChange={(event) => onChange(event.target.value)}>
          {field.options.map((option) => (
            <option key={option.value} value={option.value}>
              {labelText(option.label)}
            </option>
          ))}
        </Select>
      );
    case 'radio':
      return (
        <div role="radiogroup" id={id} aria-labelledby={labelId(id)} aria-describedby={describedBy} className="flex flex-wrap gap-x-6 gap-y-2">
          {field.options.map((option) => (
            <label key={option.value} className="inline-flex items-center gap-2 text-sm text-slate-700">
              <input
                type="radio"
                name={id}
                value={option.value}
                className="size-4 border-slate-300 text-indigo-600"
                aria-invalid={invalid || undefined}
                checked={value === option.value}
                onChange={() => onChange(option.value)}
                onBlur={onBlur}
              />
              {labelText(option.label)}
            </label>
          ))}
        </div>
      );
    case 'checkboxes':
      return <CheckboxGroup field={field} control={control} />;
    case 'checkbox':
      return (
        <input
          {...common}
          type="checkbox"
          className="size-4 rounded border-slate-300 text-indigo-600"
          checked={Boolean(value)}
          onChange={(event) => onChange(event.target.checked)}
        />
      );
    case 'switch':
      return (
        <input
          {...common}
          type="checkbox"
          role="switch"
          className="h-6 w-11 cursor-pointer appearance-none rounded-full bg-slate-300 transition-colors before:block before:size-5 before:translate-x-0.5 before:translate-y-0.5 before:rounded-full before:bg-white before:shadow before:transition-transform checked:bg-accent checked:before:translate-x-5.5"
          checked={Boolean(value)}
          onChange={(event) => onChange(event.target.checked)}
        />
      );
    case 'phone':
      return <PhoneInput {...control} value={value as PhoneValue} />;
    case 'image':
      return <ImagePicker {...control} value={value as ImageValue} />;
    case 'date':
      return <DateInput {...control} value={String(value ?? '')} label={labelText(field.label)} />;
    case 'datetime':
      return <DateTimeInput {...control} value={String(value ?? '')} label={labelText(field.label)} />;
    case 'picker':
      return (
        <Suspense fallback={<PickerLoading />}>
          <AsyncPicker {...control} value={value as PickerOption | null} load={field.load} />
        </Suspense>
      );
    case 'multiPicker':
      return (
        <Suspense fallback={<PickerLoading />}>
          <MultiPicker {...control} value={(value as PickerOption[] | undefined) ?? []} load={field.load} />
        </Suspense>
      );
    case 'dependentSelect':
      return (
        <DependentSelect
          {...control}
          value={String(value ?? '')}
          dependency={values[field.dependsOn]}
          loadOptions={field.loadOptions}
          emptyOption={field.emptyOption}
        />
      );
    case 'rows':
      return <RepeatingRows field={field} control={control} />;
    case 'custom':
      return field.render(control);
  }
}

/** A checkbox per choice in a group named by the field's label; the value keeps the options' order. */
function CheckboxGroup({ field, control }: { field: Extract<AnyField, { kind: 'checkboxes' }>; control: ControlProps<unknown> }) {
  useSignals();
  const chosen = new Set((control.value as string[] | undefined) ?? []);
  const toggle = (value: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(value);
    else next.delete(value);
    control.onChange(field.options.map((option) => option.value).filter((option) => next.has(option)));
  };
  return (
    <div
      role="group"
      id={control.id}
      aria-labelledby={labelId(control.id)}
      aria-describedby={control.describedBy}
      className="grid gap-x-6 gap-y-2 rounded-lg border border-slate-200 p-3 sm:grid-cols-2"
    >
      {field.options.map((option) => (
        <label key={option.value} className="flex items-start gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            className="mt-0.5 size-4 shrink-0 rounded border-slate-300 text-indigo-600"
            aria-invalid={control.invalid || undefined}
            checked={chosen.has(option.value)}
            onChange={(event) => toggle(option.value, event.target.checked)}
            onBlur={control.onBlur}
          />
          <span className="min-w-0">
            {labelText(option.label)}
            {field.showValue && <code className="block text-xs break-all text-slate-500">{option.value}</code>}
          </span>
        </label>
      ))}
    </div>
  );
}

/**
 * A repeating group (e.g. a partner's city rows): each row renders the group's
 * fields; rows can be added and removed. While the group's error shows, the
 * inputs that break the row rules are marked invalid so the row is easy to find.
 */
function RepeatingRows({ field, control }: { field: Extract<AnyField, { kind: 'rows' }>; control: ControlProps<unknown> }) {
  useSignals();
  const rows = (control.value as Record<string, unknown>[] | undefined) ?? [];
  // Rows added while the group's error shows are blank by intent: they are not marked red until
  // the person types in them (a changed row is a new object, so it leaves this set by itself).
  const [untouched] = useState(() => new WeakSet<Record<string, unknown>>());
  const update = (index: number, name: string, value: unknown) =>
    control.onChange(rows.map((row, i) => (i === index ? { ...row, [name]: value } : row)));
  const add = () => {
    const row = field.newRow();
    if (control.invalid) untouched.add(row);
    control.onChange([...rows, row]);
  };

  return (
    <div className="space-y-3" role="group" id={control.id} aria-labelledby={labelId(control.id)} aria-describedby={control.describedBy}>
      {rows.map((row, index) => {
        const rowErrors = control.invalid && field.rowSchema && !untouched.has(row) ? validate(field.rowSchema, row) : {};
        const rowName = `${labelText(field.rowLabel)} ${index + 1}`;
        return (
          <fieldset key={index} className="relative grid gap-3 rounded-lg border border-slate-200 p-3 pr-12 sm:grid-cols-2">
            <legend className="px-1 text-xs font-semibold text-slate-700">{rowName}</legend>
            {field.fields.map((sub) => {
              const id = `${control.id}-${index}-${sub.name}`;
              return (
                <FieldShell key={sub.name} id={id} label={labelText(sub.label)} labelAfter={sub.kind === 'checkbox'}>
                  <FieldControl
                    field={sub}
                    values={row}
                    control={{
                      id,
                      value: row[sub.name],
                      onChange: (value) => update(index, sub.name, value),
                      onBlur: control.onBlur,
                      invalid: Boolean(rowErrors[sub.name]),
                      describedBy: rowErrors[sub.name] ? control.describedBy : undefined,
                    }}
                  />
                </FieldShell>
              );
            })}
            <IconButton
              label={`${t('button.remove')} ${rowName}`}
              className="absolute top-2 right-2"
              onClick={() => control.onChange(rows.filter((_, i) => i !== index))}
            >
              <Icon name="trash" className="size-4" />
            </IconButton>
          </fieldset>
        );
      })}
      <Button onClick={add}>
        <Icon name="plus" className="size-4" />
        {labelText(field.addLabel ?? 'button.add')}
      </Button>
    </div>
  );
}

type Segment<V> = { tab: false; field: FieldDef<V> } | { tab: true; fields: FieldDef<V>[] };

/** The fields in order, with each run of consecutive tabbed fields gathered into one tab group. */
function segments<V>(fields: readonly FieldDef<V>[]): Segment<V>[] {
  const result: Segment<V>[] = [];
  for (const field of fields) {
    const last = result[result.length - 1];
    if (!field.tab) result.push({ tab: false, field });
    else if (last?.tab) last.fields.push(field);
    else result.push({ tab: true, fields: [field] });
  }
  return result;
}

/** The field a tabbed field copies from ('Copy from Az'), if it has one. */
function copySource<V>(field: FieldDef<V>): (keyof V & string) | undefined {
  return 'copyFrom' in field ? field.copyFrom : undefined;
}

/**
 * One tab per label (Az, En, Ru), each with its fields. A tab whose fields
 * show a message says so in its name and with a red dot, so a message on a
 * hidden tab is not missed; a tab whose fields copy from another offers one
 * 'Copy from …' button that fills them all.
 */
function FieldTabs<V extends object>({
  fields,
  form,
  renderField,
}: {
  fields: FieldDef<V>[];
  form: FormApi<V>;
  renderField: (field: FieldDef<V>) => ReactNode;
}) {
  useSignals();
  const labels: FieldDef<V>['tab'][] = [];
  for (const field of fields) {
    if (!labels.some((label) => JSON.stringify(label) === JSON.stringify(field.tab))) labels.push(field.tab);
  }
  const tabs = labels.map((label) => ({ label, fields: fields.filter((field) => JSON.stringify(field.tab) === JSON.stringify(label)) }));
  const copy = (tabFields: FieldDef<V>[]) => {
    for (const field of tabFields) {
      const source = copySource(field);
      if (source) form.setValue(field.name, form.values[source] as unknown as V[typeof field.name]);
    }
  };
  return (
    <TabGroup>
      <TabList className="flex gap-1 border-b border-slate-200">
        {tabs.map((tab) => {
          const label = labelText(tab.label ?? { raw: '' });
          const broken = tab.fields.some((field) => form.errorFor(field.name));
          return (
            <Tab
              key={label}
              className={TAB_CLASS}
            >
              {label}
              {broken && (
                <>
                  <span aria-hidden="true" className="size-2 rounded-full bg-red-600" />
                  <span className="sr-only"> {t('form.tabHasErrors')}</span>
                </>
              )}
            </Tab>
          );
        })}
      </TabList>
      <TabPanels className="pt-4">
        {tabs.map((tab) => {
          const source = tab.fields.map(copySource).find(Boolean);
          const sourceField = source ? fields.find((field) => field.name === source) : undefined;
          return (
            <TabPanel key={labelText(tab.label ?? { raw: '' })} className="grid gap-4 focus:outline-none">
              {sourceField?.tab && (
                <div>
                  <Button onClick={() => copy(tab.fields)}>
                    <Icon name="copy" className="size-4" />
                    {t('form.copyFrom', { source: labelText(sourceField.tab) })}
                  </Button>
                </div>
              )}
              {tab.fields.map(renderField)}
            </TabPanel>
          );
        })}
      </TabPanels>
    </TabGroup>
  );
}

/** Stands in for a picker while its code loads; marked (PENDING_FIELD) so the form's first-field focus waits for the picker. */
function PickerLoading() {
  return <input className={inputClass} disabled aria-label={t('picker.loading')} data-pending-field="" />;
}

/** Lays out a declared form's fields, wiring values, blur and the visible errors to `form`; tabbed fields go in tabs. */
export function FormFields<V extends object>({ fields, form, idPrefix }: { fields: readonly FieldDef<V>[]; form: FormApi<V>; idPrefix: string }) {
  useSignals();
  const change = (field: FieldDef<V>, value: unknown) => {
    form.setValue(field.name, value as V[typeof field.name]);
    const linked = field.updates?.(value, form.values) ?? {};
    for (const [name, linkedValue] of Object.entries(linked)) form.setValue(name as keyof V, linkedValue as V[keyof V]);
  };
  const renderField = (field: FieldDef<V>) => {
    const id = `${idPrefix}-${field.name}`;
    const error = form.errorFor(field.name);
    return (
      <FieldShell key={field.name} id={id} label={labelText(field.label)} error={error} labelAfter={field.kind === 'checkbox'}>
        <FieldControl
          field={field as AnyField}
          values={form.values as Record<string, unknown>}
          control={{
            id,
            value: form.values[field.name],
            onChange: (value) => change(field, value),
            onBlur: () => form.touch(field.name),
            invalid: Boolean(error),
            describedBy: error ? errorId(id) : undefined,
          }}
        />
      </FieldShell>
    );
  };
  const visible = fields.filter((field) => field.visibleWhen?.(form.values) ?? true);
  return (
    <div className="grid gap-4">
      {segments(visible).map((segment) =>
        segment.tab ? (
          <FieldTabs key={`tabs-${segment.fields[0].name}`} fields={segment.fields} form={form} renderField={renderField} />
        ) : (
          renderField(segment.field)
        ),
      )}
    </div>
  );
}
