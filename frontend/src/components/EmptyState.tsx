import type { ReactNode } from 'react';
import { Icon, type IconName } from './icons';

export function EmptyState({ icon, title, children }: { icon: IconName; title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center justify-center gap-3 rounded-xl border border-dashed border-slate-300 bg-surface px-6 py-16 text-center">
      <span className="rounded-full bg-indigo-50 p-4 text-indigo-600">
        <Icon name={icon} className="size-8" />
      </span>
      <p className="text-lg font-semibold text-slate-800">{title}</p>
      {children && <div className="max-w-md text-sm text-slate-500">{children}</div>}
    </div>
  );
}
