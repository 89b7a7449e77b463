import { useEffect, useRef, useState } from 'react';
import { dayText, dayTimeText, typedDay, typedDayTime } from '../../lib/dates';
import { t } from '../../lib/i18n';
import { Icon } from '../icons';
import { TextInput } from './inputs';
import type { ControlProps } from './types';

interface Shape {
  /** The value as the panel shows it (dd-MM-yyyy, with HH:mm for a time). */
  shown: (value: string) => string;
  /** What a person typed → the value, or null when it is not a date. */
  read: (text: string) => string | null;
  native: 'date' | 'datetime-local';
  /** The shape to type, in the interface language's letters (dd-mm-yyyy, gg-aa-iiii): the placeholder and the hint say it. */
  placeholder: 'date.shape' | 'date.shapeTime';
  hint: 'date.typed' | 'date.typedTime';
}

const DAY: Shape = { shown: dayText, read: typedDay, native: 'date', placeholder: 'date.shape', hint: 'date.typed' };
const DAY_TIME: Shape = {
  shown: dayTimeText,
  read: typedDayTime,
  native: 'datetime-local',
  placeholder: 'date.shapeTime',
  hint: 'date.typedTime',
};

/**
 * A date typed as the rest of the panel shows dates (dd-MM-yyyy), with a calendar button that
 * opens the browser's own picker. The field's value stays the ISO shape (yyyy-MM-dd, or
 * yyyy-MM-ddTHH:mm) the forms and filters work with; text that is not a date yet gives the value
 * '' and, once the field is left, a hint under it. `label` is the field's visible label: the
 * calendar button is named after it ("Choose Start date from a calendar").
 */
function TypedDateInput({ id, value, onChange, onBlur, invalid, describedBy, shape, label }: ControlProps<string> & { shape: Shape; label: string }) {
  const [text, setText] = useState(() => shape.shown(value));
  const [unreadable, setUnreadable] = useState(false);
  const calendar = useRef<HTMLInputElement>(null);
  // Follow a value set from outside (a reset, a removed filter chip), not the one being typed.
  useEffect(() => {
    setText((current) => ((shape.read(current) ?? '') === value ? current : shape.shown(value)));
  }, [value, shape]);

  const hintId = `${id}-typed`;
  const described = [describedBy, unreadable ? hintId : undefined].filter(Boolean).join(' ') || undefined;
  const type = (raw: string) => {
    setText(raw);
    const read = raw.trim() ? shape.read(raw) : '';
    if (read !== null) setUnreadable(false);
    onChange(read ?? '');
  };
  const leave = () => {
    const read = text.trim() ? shape.read(text) : '';
    setUnreadable(read === null);
    if (read) setText(shape.shown(read));
    onBlur();
  };
  const openCalendar = () => {
    const input = calendar.current;
    if (!input) return;
    try {
      input.showPicker();
    } catch {
      // A browser without showPicker (or refusing it): the typed field still works.
      input.focus();
    }
  };

  return (
    <div>
      <div className="relative">
        <TextInput
          id={id}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          placeholder={t(shape.placeholder)}
          value={text}
          aria-invalid={invalid || unreadable || undefined}
          aria-describedby={described}
          onChange={(event) => type(event.target.value)}
          onBlur={leave}
          className="pr-10"
        />
        <button
          type="button"
          onClick={openCalendar}
          aria-label={t('date.choose', { label })}
          className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-lg text-slate-500 hover:text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-500"
        >
          <Icon name="calendar" className="size-4" aria-hidden="true" />
        </button>
        {/* The browser's picker, opened by the button; hidden from the keyboard and screen readers, which use the text field. */}
        <input
          ref={calendar}
          type={shape.native}
          tabIndex={-1}
          aria-hidden="true"
          aria-label={t('date.calendar', { label })}
          className="pointer-events-none absolute bottom-0 right-0 h-px w-px opacity-0"
          value={shape.read(text) ?? value}
          onChange={(event) => {
            setUnreadable(false);
            setText(shape.shown(event.target.value));
            onChange(event.target.value);
          }}
        />
      </div>
      {unreadable ? (
        <p id={hintId} className="mt-1 text-xs text-red-600">
          {t(shape.hint, { shape: t(shape.placeholder) })}
        </p>
      ) : null}
    </div>
  );
}

/** A calendar day, typed as dd-MM-yyyy; its value is yyyy-MM-dd. */
export const DateInput = (props: ControlProps<string> & { label: string }) => <TypedDateInput {...props} shape={DAY} />;

/** A local date and time, typed as dd-MM-yyyy HH:mm; its value is yyyy-MM-ddTHH:mm, which lib/dates turns into the API's UTC instant. */
export const DateTimeInput = (props: ControlProps<string> & { label: string }) => <TypedDateInput {...props} shape={DAY_TIME} />;
