import { Dialog as HeadlessDialog, DialogBackdrop, DialogPanel } from '@headlessui/react';
import type { ReactNode } from 'react';
import { PanelHeader, useOpenedAfterMount } from './Dialog';
import { SafeImage } from './SafeImage';

/** The 400 px detail panel on the right (640 px when 'wide', for a log); on a phone it takes the whole width. */
export function Drawer({
  open,
  onClose,
  title,
  side = 'right',
  size,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  side?: 'left' | 'right';
  size?: 'wide';
  children: ReactNode;
}) {
  const shown = useOpenedAfterMount(open);
  return (
    <HeadlessDialog open={shown} onClose={onClose} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-ink/40" />
      <DialogPanel
        style={{ width: `min(${size === 'wide' ? 640 : 400}px, 100vw)` }}
        className={`fixed inset-y-0 flex flex-col bg-surface shadow-xl ${side === 'right' ? 'right-0' : 'left-0'}`}
      >
        <PanelHeader title={title} onClose={onClose} />
        {/* Focusable, so a long body (a campaign's details) can be scrolled from the keyboard. */}
        <div tabIndex={0} className="flex-1 overflow-y-auto px-5 py-4 focus-visible:outline-2 focus-visible:outline-indigo-600">
          {children}
        </div>
      </DialogPanel>
    </HeadlessDialog>
  );
}

/**
 * Label/value pairs for a drawer body; `compact`: small, two or three to a row (a delivery's
 * figures in a log).
 */
export function DetailList({ items, compact = false }: { items: { label: string; value: ReactNode }[]; compact?: boolean }) {
  return (
    <dl className={compact ? 'grid grid-cols-2 gap-x-4 gap-y-1 text-xs sm:grid-cols-3' : 'divide-y divide-slate-100'}>
      {items.map((item) => (
        <div key={item.label} className={compact ? 'min-w-0' : 'grid grid-cols-5 gap-3 py-3 text-sm'}>
          <dt className={compact ? 'text-slate-600' : 'col-span-2 text-slate-500'}>{item.label}</dt>
          <dd className={`${compact ? '' : 'col-span-3 '}break-words font-medium text-slate-900`}>{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A record's image in a detail list, named by the record; missing or broken images show the default logo. */
export function DetailImage({ path, alt }: { path: string | null | undefined; alt: string }) {
  return <SafeImage path={path} alt={alt} className="size-20 rounded-lg object-cover" />;
}
