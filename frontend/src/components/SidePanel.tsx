import { Dialog as HeadlessDialog, DialogBackdrop, DialogPanel } from '@headlessui/react';
import { useSignals } from '@preact/signals-react/runtime';
import type { ReactNode } from 'react';
import { PanelHeader } from './Dialog';

/**
 * A modal panel sliding in from the right edge, for long forms (a campaign's
 * three languages, two images and pickers) that want the window's full height:
 * 640 px wide, the whole width on a phone. It behaves as a Dialog does (focus
 * trapped, page inert, Escape and Close dismiss it, focus goes back to the
 * opener), and its body scrolls between the title and a form's DialogActions.
 */
export function SidePanel({ open, onClose, title, children }: { open: boolean; onClose: () => void; title: string; children: ReactNode }) {
  useSignals();
  return (
    <HeadlessDialog open={open} onClose={onClose} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-ink/40" />
      <DialogPanel
        data-side-panel
        style={{ width: 'min(640px, 100vw)' }}
        className="fixed inset-y-0 right-0 flex max-h-dvh flex-col bg-surface shadow-xl"
      >
        <PanelHeader title={title} onClose={onClose} />
        <div data-dialog-body className="min-h-0 flex-1 overflow-y-auto px-5 py-4">
          {children}
        </div>
      </DialogPanel>
    </HeadlessDialog>
  );
}
