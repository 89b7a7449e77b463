import { Dialog as HeadlessDialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState, type ReactNode } from 'react';
import { t } from '../lib/i18n';
import { IconButton } from './Button';
import { Icon } from './icons';

const widths = { sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-2xl' } as const;
export type DialogSize = keyof typeof widths;

/**
 * Headless UI makes the page behind a dialog inert and hidden from assistive
 * technology when the dialog opens, but not when it is mounted already open
 * (a row tool's dialog is rendered only while it shows): such a dialog is
 * mounted closed and opened right after, so every dialog takes the same path.
 */
export function useOpenedAfterMount(open: boolean): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return open && mounted;
}

/**
 * A modal dialog: focus is trapped inside, the page behind is inert and hidden
 * from assistive technology, Escape and the close button dismiss it, and focus
 * returns to the control that opened it. A dialog taller than the window keeps
 * its title and close button (and a form's DialogActions) in view while its
 * body scrolls between them.
 */
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
  const shown = useOpenedAfterMount(open);
  return (
    <HeadlessDialog open={shown} onClose={onClose} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-ink/40" />
      <div className="fixed inset-0 flex items-end justify-center sm:items-center sm:p-4">
        <DialogPanel
          className={`flex max-h-dvh w-full flex-col ${widths[size]} rounded-t-2xl bg-surface shadow-xl sm:max-h-[calc(100dvh-2rem)] sm:rounded-2xl`}
        >
          <PanelHeader title={title} onClose={onClose} />
          <div data-dialog-body className="min-h-0 flex-1 overflow-y-auto px-5 py-4">
            {children}
          </div>
        </DialogPanel>
      </div>
    </HeadlessDialog>
  );
}

/** Title and close button of a dialog or drawer; the title names the dialog for assistive technology. */
export function PanelHeader({ title, onClose }: { title: string; onClose: () => void }) {
  useSignals();
  return (
    <div className="flex shrink-0 items-center justify-between border-b border-slate-200 px-5 py-4">
      <DialogTitle className="text-base font-semibold text-slate-900">{title}</DialogTitle>
      <IconButton label={t('button.close')} onClick={onClose}>
        <Icon name="close" />
      </IconButton>
    </div>
  );
}

/**
 * The button row at the bottom of a dialog body. It sticks to the bottom of
 * the scrolling body, so Save and Cancel stay in reach in a long form.
 */
export function DialogActions({ children }: { children: ReactNode }) {
  return (
    <div className="sticky -bottom-4 z-10 -mx-5 mt-5 -mb-4 flex flex-col-reverse gap-2 border-t border-slate-200 bg-surface px-5 py-3 sm:flex-row sm:justify-end">
      {children}
    </div>
  );
}
