import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState, type RefObject } from 'react';
import { isColumnShown, loadColumnChoice, saveColumnChoice, type ColumnChoice, type ColumnPriority } from '../lib/columnChoice';
import { t } from '../lib/i18n';
import { currentUser } from '../lib/session';
import { buttonClass } from './Button';
import { Icon } from './icons';

export interface ChoosableColumn {
  key: string;
  header: string;
  priority?: ColumnPriority;
}

/** The element's width in rem (the unit the column priorities are stated in), kept current as it resizes. */
export function useWidthInRem(ref: RefObject<HTMLElement | null>): number {
  const [rem, setRem] = useState(Number.POSITIVE_INFINITY);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const rootFont = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
      setRem(element.clientWidth / rootFont);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return rem;
}

/**
 * The list's "Columns" button: a checkbox per column, ticked while the column shows. A column the
 * card is too narrow for says so and comes back when ticked; Reset returns every column to what
 * the width decides. The last column that shows cannot be hidden.
 */
export function ColumnChooser({
  columns,
  choice,
  cardRem,
  onChange,
}: {
  columns: ChoosableColumn[];
  choice: ColumnChoice;
  cardRem: number;
  onChange: (next: ColumnChoice) => void;
}) {
  useSignals();
  const shown = columns.filter((column) => isColumnShown(choice, column.key, column.priority, cardRem));
  const hiddenCount = columns.length - shown.length;
  return (
    <Popover className="relative">
      <PopoverButton className={buttonClass('ghost')}>
        <Icon name="columns" className="size-4" />
        {t('columns.button')}
        {hiddenCount > 0 && (
          <span className="rounded-full bg-slate-200 px-1.5 text-xs leading-5 font-semibold text-slate-700">
            <span aria-hidden="true">−{hiddenCount}</span>
            <span className="sr-only">{t('columns.hiddenCount', { count: hiddenCount })}</span>
          </span>
        )}
      </PopoverButton>
      {/* In place, not portalled: a portalled panel brings focus sentinels that axe finds hidden yet focusable. */}
      <PopoverPanel className="absolute right-0 z-40 mt-2 w-64 rounded-lg border border-slate-200 bg-surface p-3 text-sm shadow-lg focus:outline-none">
        <fieldset>
          <legend className="mb-2 font-semibold text-slate-900">{t('columns.legend')}</legend>
          <ul className="flex flex-col gap-1">
            {columns.map((column) => {
              const isShown = shown.includes(column);
              const narrow = !isShown && choice[column.key] === undefined;
              return (
                <li key={column.key}>
                  <label className="flex items-center gap-2 rounded px-1 py-1 hover:bg-slate-50">
                    <input
                      type="checkbox"
                      className="size-4 rounded border-slate-300"
                      checked={isShown}
                      disabled={isShown && shown.length === 1}
                      onChange={(event) => onChange({ ...choice, [column.key]: event.target.checked })}
                    />
                    <span className="text-slate-800">{column.header}</span>
                    {narrow && <span className="ml-auto text-xs text-slate-600">{t('columns.tooNarrow')}</span>}
                  </label>
                </li>
              );
            })}
          </ul>
        </fieldset>
        <button
          type="button"
          className={`${buttonClass('secondary')} mt-3 w-full`}
          disabled={Object.keys(choice).length === 0}
          onClick={() => onChange({})}
        >
          {t('columns.reset')}
        </button>
      </PopoverPanel>
    </Popover>
  );
}

/** The signed-in person's choice for one screen, stored as it changes. */
export function useColumnChoice(screen: string): [ColumnChoice, (next: ColumnChoice) => void] {
  useSignals();
  const userId = currentUser.value?.id ?? 0;
  const [stored, setStored] = useState(() => ({ userId, screen, choice: loadColumnChoice(userId, screen) }));
  // Another person signing in, or the same page component showing another screen, reads its own choice.
  const current = stored.userId === userId && stored.screen === screen ? stored.choice : loadColumnChoice(userId, screen);
  const change = (choice: ColumnChoice) => {
    saveColumnChoice(userId, screen, choice);
    setStored({ userId, screen, choice });
  };
  return [current, change];
}

/** The table's columns as the person chose: hidden ones left out, ones asked for shown at every width. */
export function chosenColumns<Column extends ChoosableColumn>(columns: Column[], choice: ColumnChoice): Column[] {
  return columns
    .filter((column) => choice[column.key] !== false)
    .map((column) => (choice[column.key] ? { ...column, priority: 1 as const } : column));
}
