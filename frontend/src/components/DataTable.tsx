import { useSignals } from '@preact/signals-react/runtime';
import { Fragment, useEffect, useRef, useState, type CSSProperties, type ReactNode, type RefObject } from 'react';
import type { ColumnPriority } from '../lib/columnChoice';
import { t } from '../lib/i18n';
import { Button } from './Button';
import { Icon } from './icons';
import { Spinner } from './Spinner';

export type LoadStatus = 'loading' | 'ready' | 'error';

/**
 * How much a column matters when the table's card is narrow: 1 always shows
 * (what names the row, its status, the actions); 2 shows from a 40rem-wide
 * card; 3 from a 58rem-wide one (a 1280 px window has room beside the full side menu, 1024 px beside the icons has not).
 * A dropped column's value stays in the detail drawer and in the export, and the column chooser brings it back.
 */
export type { ColumnPriority } from '../lib/columnChoice';

export interface TableColumn<Row> {
  key: string;
  header: string;
  /** The API sort field; columns without one (tools, images) do not sort. */
  sortField?: string;
  render: (row: Row) => ReactNode;
  className?: string;
  /** Stays at the right edge while a table wider than its card scrolls (the row actions). */
  stickyEnd?: boolean;
  /** 1 (default) always shows; 2 and 3 drop out of narrow cards, see ColumnPriority. */
  priority?: ColumnPriority;
  /**
   * The header may take two lines ("Discount / percent"): a very wide list (Campaigns) fits every
   * column at 1280 px so. Other headers never wrap.
   */
  wrapHeader?: boolean;
  /**
   * A text column (names, e-mails) cut with an ellipsis, the full text on hover (an e-mail wraps instead).
   * From `md` up such columns share the width the other columns leave, in
   * proportion to their `width`; below it each is cut at 16rem and a wide table
   * scrolls inside its card.
   */
  text?: (row: Row) => string;
  /** A text column's typical length in characters (default 16): its share of the free width. */
  width?: number;
  /**
   * The column's narrowest width (a CSS length): another column's, at least its widest content, so
   * an empty or failed list lays its headers out as a full one does; a text column's, the room its
   * text needs to read well (an e-mail's two lines).
   */
  minWidth?: string;
}

export interface TableSort {
  field: string;
  ascending: boolean;
}

export interface TableSelection<Row = unknown> {
  selected: ReadonlySet<number>;
  onChange: (next: Set<number>) => void;
  /** A row that cannot be selected (it could only fail, e.g. the signed-in user's own row), with the reason shown on hover. */
  blockedReason?: (row: Row) => string | undefined;
}

/**
 * Container-query classes that drop a column from narrow cards (see
 * ColumnPriority). Spelled out whole so Tailwind finds them.
 */
export function priorityClass(priority: ColumnPriority = 1): string {
  switch (priority) {
    case 3:
      return 'hidden @[58rem]:table-cell';
    case 2:
      return 'hidden @[40rem]:table-cell';
    default:
      return '';
  }
}

const DEFAULT_TEXT_WIDTH = 16;

/**
 * Each text column's share of the width the other columns leave, as a CSS
 * percentage, from the declared widths only: the rows never move a column, so
 * typing a filter or turning a page leaves every column where it was.
 */
export function textColumnShares<Row>(columns: TableColumn<Row>[]): Map<string, string> {
  const weights = columns.filter((column) => column.text).map((column) => [column.key, column.width ?? DEFAULT_TEXT_WIDTH] as const);
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  return new Map(weights.map(([key, weight]) => [key, `${((weight / total) * 100).toFixed(2)}%`]));
}

function SelectAll<Row extends { id: number }>({ rows, selection }: { rows: Row[]; selection: TableSelection<Row> }) {
  const ref = useRef<HTMLInputElement>(null);
  const selectable = rows.filter((row) => !selection.blockedReason?.(row));
  const count = selectable.filter((row) => selection.selected.has(row.id)).length;
  const all = selectable.length > 0 && count === selectable.length;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = count > 0 && !all;
  }, [count, all]);
  // Selects or clears this page's rows; rows chosen on other pages stay chosen.
  const toggle = () => {
    const next = new Set(selection.selected);
    for (const row of selectable) {
      if (all) next.delete(row.id);
      else next.add(row.id);
    }
    selection.onChange(next);
  };
  return (
    <input
      ref={ref}
      type="checkbox"
      aria-label={t('table.selectAll')}
      className="size-4 rounded border-slate-300"
      checked={all}
      disabled={selectable.length === 0}
      onChange={toggle}
    />
  );
}

function SortHeader({ column, sort, onSort }: { column: TableColumn<unknown>; sort?: TableSort; onSort: (field: string) => void }) {
  const field = column.sortField as string;
  const active = sort?.field === field;
  const icon = !active ? 'sortNone' : sort.ascending ? 'sortAsc' : 'sortDesc';
  // The last word, or the last part of a long word after its soft hyphen ("Spez\u00adangebot").
  const lastBreak = Math.max(column.header.lastIndexOf(' '), column.header.lastIndexOf('\u00ad'));
  const head = column.header.slice(0, lastBreak + 1);
  const last = column.header.slice(lastBreak + 1);
  return (
    <button
      type="button"
      className="text-left font-semibold hover:text-indigo-700"
      onClick={() => onSort(field)}
      // The header's name stays its label ("Used"); what the button does is its description.
      aria-description={t('table.sortBy', { column: column.header })}
    >
      {/* The icon is glued to the label's last word, so a wrapped label never leaves it on a line of its own or at the far edge. */}
      {head}
      <span className="whitespace-nowrap">
        {last}
        <Icon name={icon} className={`ml-1 inline-block size-3.5 align-[-0.125rem] ${active ? 'text-indigo-700' : 'text-slate-500'}`} />
      </span>
    </button>
  );
}

/** Text that holds an e-mail address. */
const EMAIL = /\S@\S+\.\S/;

/**
 * Text cut with an ellipsis to its cell (16rem below md), the whole of it on hover; text with an
 * e-mail in it is never cut (someone reads it to write to the person, or to tell two apart): it
 * wraps instead, before its @ and after its dots first, anywhere else only if it must.
 */
function CutText({ text }: { text: string }) {
  if (EMAIL.test(text)) {
    const parts = text.split(/(?=@)|(?<=\.)/);
    return (
      <span className="block max-w-64 whitespace-normal [overflow-wrap:anywhere] md:max-w-none">
        {parts.map((part, index) => (
          <Fragment key={index}>
            {index > 0 && <wbr />}
            {part}
          </Fragment>
        ))}
      </span>
    );
  }
  return (
    <span className="block max-w-64 truncate md:max-w-none" title={text}>
      {text}
    </span>
  );
}

/**
 * How far a table gives way to fit its card from md up: 0 not at all; 1 its headers take two lines
 * (a language with longer words than English); 2 its text columns also give up the room they
 * would like (an e-mail's two lines), their text wrapping on more lines. Each step is taken only
 * while the table is still wider than its card, and all are undone once the card grows wider than
 * it was when the first was taken.
 */
export type Squeeze = 0 | 1 | 2;

/** Whether the element's content is wider than the element (kept current as either resizes), and how far it squeezes to fit. */
function useHorizontalOverflow(ref: RefObject<HTMLElement | null>): { overflowing: boolean; squeeze: Squeeze } {
  const [overflowing, setOverflowing] = useState(false);
  const [squeeze, setSqueeze] = useState<{ level: Squeeze; at: number | null }>({ level: 0, at: null });
  const measure = useRef<() => void>(() => {});
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    measure.current = () => {
      const width = element.clientWidth;
      const over = element.scrollWidth > width + 1;
      const fromMd = typeof window.matchMedia === 'function' && window.matchMedia('(min-width: 768px)').matches;
      setOverflowing(over);
      setSqueeze((current) => {
        if (current.at !== null && width > current.at + 1) return { level: 0, at: null };
        if (over && fromMd && current.level < 2) return { level: (current.level + 1) as Squeeze, at: current.at ?? width };
        return current;
      });
    };
    // observe() reports the current sizes once after the next layout, so there is no first measure here:
    // reading scrollWidth during the mount would force a layout of the whole page before the list is even requested.
    const observer = new ResizeObserver(() => measure.current());
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [ref]);
  // A step that changed no size would not be observed: look again once it is drawn.
  useEffect(() => {
    if (squeeze.level === 0) return;
    const frame = requestAnimationFrame(() => measure.current());
    return () => cancelAnimationFrame(frame);
  }, [squeeze.level]);
  return { overflowing, squeeze: squeeze.level };
}

// Cells of the other columns take their content's width, so the text columns get the rest.
const fixedCell = 'md:w-px';
// A text column's header takes its share (--share) of the width; its cut cells claim none of their own.
const textHeader = 'md:w-(--share)';
const textCell = 'md:max-w-0';

// The actions column stays in view at every width (on a phone too, so a row's tools need no sideways
// scroll); rows carry an opaque background for it to inherit.
const stickyCell = 'sticky right-0 z-10';
// A fade over the columns that scroll underneath (collapsed table borders would not move with a sticky cell).
const stickyShadow =
  "before:pointer-events-none before:absolute before:inset-y-0 before:right-full before:w-4 before:bg-linear-to-l before:from-ink/10 dark:before:from-black/50 before:to-transparent before:content-['']";

/**
 * The one table every list uses: selection, sortable headers and the
 * loading/empty/failed states. Columns drop out of a narrow card by their
 * priority; a table still wider than its card scrolls inside it, says so, and
 * keeps the actions column at the right edge with a shadow over the scrolled
 * columns. Headers stay on one line, and text columns keep the room they ask
 * for, unless the table would not fit its card (Squeeze).
 */
export function DataTable<Row extends { id: number }>({
  caption,
  columns,
  rows,
  status,
  sort,
  onSort,
  selection,
  onRetry,
  emptyAction,
}: {
  caption: string;
  columns: TableColumn<Row>[];
  rows: Row[];
  status: LoadStatus;
  sort?: TableSort;
  onSort?: (field: string) => void;
  selection?: TableSelection<Row>;
  /** Offered beside "We've lost the connection". */
  onRetry?: () => void;
  /** Offered under "No information found", e.g. Clear filters. */
  emptyAction?: ReactNode;
}) {
  useSignals();
  const scroller = useRef<HTMLDivElement>(null);
  const { overflowing, squeeze } = useHorizontalOverflow(scroller);
  const wrapHeaders = squeeze >= 1;
  const span = columns.length + (selection ? 1 : 0);
  const shares = textColumnShares(columns);
  const widthClass = (column: TableColumn<Row>, header = false) => (column.text ? (header ? textHeader : textCell) : fixedCell);
  const shareStyle = (column: TableColumn<Row>) =>
    column.text ? ({ '--share': shares.get(column.key) } as CSSProperties) : undefined;
  const stickyClass = (column: TableColumn<Row>) => (column.stickyEnd ? `${stickyCell} ${overflowing ? stickyShadow : ''}` : '');
  const toggleRow = (id: number) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    selection.onChange(next);
  };

  let placeholder: ReactNode = null;
  if (rows.length === 0) {
    placeholder =
      status === 'loading' ? (
        <Spinner label={t('table.loading')} className="size-6" />
      ) : status === 'error' ? (
        <div className="flex flex-col items-center gap-3">
          <span className="text-red-700">{t('table.connectionLost')}</span>
          {onRetry && (
            <Button onClick={onRetry}>
              <Icon name="refresh" className="size-4" />
              {t('table.retry')}
            </Button>
          )}
        </div>
      ) : (
        <div className="flex flex-col items-center gap-3">
          <span>{t('table.empty')}</span>
          {emptyAction}
        </div>
      );
  }

  return (
    // The container the column priorities measure.
    <div className="@container">
      {overflowing && (
        <p className="flex items-center gap-1.5 px-4 pt-3 text-xs text-slate-600">
          <Icon name="arrowsSideways" className="size-4" />
          {t('table.scrollHint')}
        </p>
      )}
      {/* While it scrolls sideways it takes the keyboard focus, so the arrow keys can scroll a table without a control in it. */}
      <div
        ref={scroller}
        tabIndex={overflowing ? 0 : undefined}
        className="overflow-x-auto focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600"
      >
        <table className="min-w-full text-left text-sm" aria-busy={status === 'loading'}>
          <caption className="sr-only">{caption}</caption>
          <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-700">
            <tr>
              {selection && (
                <th scope="col" className="w-10 py-3 pr-2 pl-4">
                  <SelectAll rows={rows} selection={selection} />
                </th>
              )}
              {columns.map((column) => (
                <th
                  key={column.key}
                  scope="col"
                  className={`px-1.5 py-3 ${column.wrapHeader || wrapHeaders ? 'whitespace-normal' : 'whitespace-nowrap'} ${widthClass(column, true)} ${priorityClass(column.priority)} ${column.stickyEnd ? `bg-slate-50 ${stickyClass(column)}` : ''} ${column.className ?? ''}`}
                  style={shareStyle(column)}
                  aria-sort={
                    !column.sortField || !onSort
                      ? undefined
                      : sort?.field === column.sortField
                        ? sort.ascending
                          ? 'ascending'
                          : 'descending'
                        : 'none'
                  }
                >
                  {/* A text column's room (an e-mail's two lines) is the last to give way (Squeeze). */}
                  <div style={{ minWidth: column.text && squeeze === 2 ? undefined : column.minWidth }}>
                    {column.sortField && onSort ? (
                      <SortHeader column={column as TableColumn<unknown>} sort={sort} onSort={onSort} />
                    ) : (
                      column.header
                    )}
                  </div>
                </th>
              ))}
            </tr>
          </thead>
          <tbody className={`divide-y divide-slate-100 ${status === 'loading' && rows.length > 0 ? 'opacity-60' : ''}`}>
            {placeholder !== null ? (
              <tr>
                <td colSpan={span} className="px-4 py-12 text-center text-slate-600">
                  {placeholder}
                </td>
              </tr>
            ) : (
              rows.map((row) => {
                const blocked = selection?.blockedReason?.(row);
                return (
                  <tr key={row.id} className={selection?.selected.has(row.id) ? 'bg-indigo-50' : 'bg-surface hover:bg-slate-50'}>
                    {selection && (
                      <td className="py-3 pr-2 pl-4" title={blocked}>
                        <input
                          type="checkbox"
                          aria-label={t('table.selectRow', { id: row.id })}
                          aria-description={blocked}
                          className="size-4 rounded border-slate-300"
                          checked={selection.selected.has(row.id)}
                          disabled={Boolean(blocked)}
                          onChange={() => toggleRow(row.id)}
                        />
                      </td>
                    )}
                    {columns.map((column) => (
                      <td
                        key={column.key}
                        className={`px-1.5 py-3 align-middle whitespace-nowrap ${widthClass(column)} ${priorityClass(column.priority)} ${column.stickyEnd ? `bg-inherit ${stickyClass(column)}` : ''} ${column.className ?? ''}`}
                      >
                        {column.text ? <CutText text={column.text(row)} /> : column.render(row)}
                      </td>
                    ))}
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
