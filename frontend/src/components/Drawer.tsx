import { Dialog as HeadlessDialog, DialogBackdrop, DialogPanel } from '@headlessui/react';
import type { ReactNode } from 'react';
import { PanelHeader, useOpenedAfterMount } from './Dialog';
import { SafeImage } from './SafeImage';

/** The 400 px detail panel on the right; on a phone it takes the whole width. */
export function Drawer({
  open,
  onClose,
  title,
  side = 'right',
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  side?: 'left' | 'right';
  children: ReactNode;
}) {
  const shown = useOpenedAfterMount(open);
  return (
    <HeadlessDialog open={shown} onClose={onClose} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-ink/40" />
      <DialogPanel
        style={{ width: 'min(400px, 100vw)' }}
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

/** Label/value pairs for a drawer body. */
export function DetailList({ items }: { items: { label: string; value: ReactNode }[] }) {
  return (
    <dl className="divide-y divide-slate-100">
      {items.map((item) => (
        <div key={item.label} className="grid grid-cols-5 gap-3 py-3 text-sm">
          <dt className="col-span-2 text-slate-500">{item.label}</dt>
          <dd className="col-span-3 break-words font-medium text-slate-900">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A record's image in a detail list, named by the record; missing or broken images show the default logo. */
export function DetailImage({ path, alt }: { path: string | null | undefined; alt: string }) {
  return <SafeImage path={path} alt={alt} className="size-20 rounded-lg object-cover" />;
}
