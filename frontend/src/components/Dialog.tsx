import { Dialog as HeadlessDialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { useSignals } from '@preact/signals-react/runtime';
import type { ReactNode } from 'react';
import { t } from '../lib/i18n';
import { IconButton } from './Button';
import { Icon } from './icons';

const widths = { sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-2xl' } as const;
export type DialogSize = keyof typeof widths;

/** A modal dialog: focus is trapped inside, Escape and the close button dismiss it. */
export function Dialog({
  open,
  onClose,
  title,
  size = 'md',
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  size?: DialogSize;
  children: ReactNode;
}) {
  useSignals();
  return (
    <HeadlessDialog open={open} onClose={onClose} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/40" />
      {/* The scroller holds a min-full-height centring box: a dialog taller than the window then
          scrolls from its title down to its buttons (centring in the scroller itself would push
          the top out of reach). */}
      <div className="fixed inset-0 overflow-y-auto">
        <div className="flex min-h-full items-end justify-center p-0 sm:items-center sm:p-4">
          <DialogPanel className={`w-full ${widths[size]} rounded-t-2xl bg-white shadow-xl sm:rounded-2xl`}>
            <PanelHeader title={title} onClose={onClose} />
            <div className="px-5 py-4">{children}</div>
          </DialogPanel>
        </div>
      </div>
    </HeadlessDialog>
  );
}

/** Title and close button of a dialog or drawer; the title names the dialog for assistive technology. */
export function PanelHeader({ title, onClose }: { title: string; onClose: () => void }) {
  useSignals();
  return (
    <div className="flex items-center justify-between border-b border-slate-200 px-5 py-4">
      <DialogTitle className="text-base font-semibold text-slate-900">{title}</DialogTitle>
      <IconButton label={t('button.close')} onClick={onClose}>
        <Icon name="close" />
      </IconButton>
    </div>
  );
}

/** The button row at the bottom of a dialog body. */
export function DialogActions({ children }: { children: ReactNode }) {
  return <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{children}</div>;
}
