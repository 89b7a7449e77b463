import { useSignals } from '@preact/signals-react/runtime';
import { useId } from 'react';
import { formatNumber, t } from '../lib/i18n';
import { PAGE_SIZES } from '../lib/listQuery';
import { Icon } from './icons';

/** Page numbers around the current one, with the first and last always reachable. */
export function pageWindow(page: number, pageCount: number): (number | 'gap')[] {
  const pages = new Set([1, pageCount, page - 1, page, page + 1].filter((p) => p >= 1 && p <= pageCount));
  const sorted = [...pages].sort((a, b) => a - b);
  const result: (number | 'gap')[] = [];
  sorted.forEach((p, index) => {
    if (index > 0 && p - sorted[index - 1] > 1) result.push('gap');
    result.push(p);
  });
  return result;
}

const pageButton =
  'inline-flex h-8 min-w-8 items-center justify-center rounded-md px-2 text-sm disabled:text-slate-300 focus-visible:outline-2 focus-visible:outline-indigo-600';

export function Pagination({
  page,
  size,
  total,
  onPage,
  onSize,
}: {
  page: number;
  size: number;
  total: number;
  onPage: (page: number) => void;
  onSize: (size: number) => void;
}) {
  useSignals();
  // Two lists on a screen (a drawer's log over the page's list) each name their own select.
  const sizeId = useId();
  const pageCount = Math.max(1, Math.ceil(total / size));
  const from = total === 0 ? 0 : (page - 1) * size + 1;
  const to = Math.min(total, page * size);
  return (
    <nav aria-label={t('table.pagination')} className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex items-center gap-2 text-sm text-slate-600">
        <label htmlFor={sizeId}>{t('table.rowsPerPage')}</label>
        <select
          id={sizeId}
          className="rounded-md border border-slate-300 bg-surface px-2 py-1 text-sm"
          value={size}
          onChange={(event) => onSize(Number(event.target.value))}
        >
          {PAGE_SIZES.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
        <span>{t('table.showing', { from: formatNumber(from), to: formatNumber(to), total: formatNumber(total) })}</span>
      </div>
      <ul className="flex items-center gap-1">
        <li>
          <button type="button" className={`${pageButton} hover:bg-slate-100`} disabled={page <= 1} onClick={() => onPage(page - 1)} aria-label={t('table.previous')}>
            <Icon name="chevronLeft" className="size-4" />
          </button>
        </li>
        {pageWindow(page, pageCount).map((item, index) =>
          item === 'gap' ? (
            <li key={`gap-${index}`} aria-hidden="true" className="px-1 text-slate-400">
              …
            </li>
          ) : (
            <li key={item}>
              <button
                type="button"
                className={`${pageButton} ${item === page ? 'bg-accent font-semibold text-white' : 'hover:bg-slate-100'}`}
                aria-label={t('table.page', { page: item })}
                aria-current={item === page ? 'page' : undefined}
                onClick={() => onPage(item)}
              >
                {item}
              </button>
            </li>
          ),
        )}
        <li>
          <button type="button" className={`${pageButton} hover:bg-slate-100`} disabled={page >= pageCount} onClick={() => onPage(page + 1)} aria-label={t('table.next')}>
            <Icon name="chevronRight" className="size-4" />
          </button>
        </li>
      </ul>
    </nav>
  );
}
