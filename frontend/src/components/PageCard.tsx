import { useId, type ReactNode } from 'react';

/** The white card a screen sits in: its h1 title, an optional intro, actions on the right, then the body. */
export function PageCard({
  title,
  intro,
  actions,
  className = '',
  children,
}: {
  title: string;
  intro?: ReactNode;
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className={`rounded-xl border border-slate-200 bg-surface shadow-sm ${className}`}>
      <header className="flex flex-col gap-3 border-b border-slate-200 px-4 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-5">
        <div>
          <h1 id={titleId} className="text-lg font-semibold text-slate-900">
            {title}
          </h1>
          {intro && <p className="mt-1 text-sm text-slate-600">{intro}</p>}
        </div>
        {actions}
      </header>
      {children}
    </section>
  );
}
