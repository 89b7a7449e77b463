import { useSignals } from '@preact/signals-react/runtime';
import { useId, type ReactNode } from 'react';
import { t } from '../lib/i18n';
import { Alert } from './Alert';
import { Spinner } from './Spinner';
import type { RemoteValue } from './useRemoteValue';

/**
 * One card of a page made of several (the dashboard): an h2 title, controls on
 * the right, then the body. `flush` bodies (tables) reach the card's edges.
 */
export function Panel({
  title,
  actions,
  flush = false,
  className = '',
  children,
}: {
  title: string;
  actions?: ReactNode;
  flush?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className={`flex min-w-0 flex-col overflow-hidden rounded-xl border border-slate-200 bg-surface shadow-sm ${className}`}>
      <header className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-4 py-3 sm:px-5">
        <h2 id={titleId} className="text-base font-semibold text-slate-900">
          {title}
        </h2>
        {actions}
      </header>
      <div className={`min-w-0 flex-1 ${flush ? '' : 'px-4 py-4 sm:px-5'}`}>{children}</div>
    </section>
  );
}

/**
 * What a remote value shows: a spinner until the first answer, `Error: ` and
 * the message when the call failed (the rest of the page is not affected),
 * otherwise `children` with the data (kept while a newer answer loads).
 */
export function RemoteContent<T>({
  value,
  inset = false,
  children,
}: {
  value: RemoteValue<T>;
  /** Pads the message and the spinner (in a `flush` panel). */
  inset?: boolean;
  children: (data: T) => ReactNode;
}) {
  useSignals();
  if (value.status === 'error') {
    return (
      <div className={inset ? 'p-4' : ''}>
        <Alert tone="danger">{t('chart.error', { message: value.message })}</Alert>
      </div>
    );
  }
  if (value.data === undefined) {
    return (
      <div className="flex justify-center py-10 text-indigo-600">
        <Spinner label={t('app.loading')} className="size-6" />
      </div>
    );
  }
  return <>{children(value.data)}</>;
}
