import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { t } from '../lib/i18n';
import { IconButton } from './Button';
import { Icon } from './icons';

export interface Toast {
  id: number;
  text: string;
}

/** How long a confirmation stays: long enough to read twice, short enough not to pile up. */
export const TOAST_DURATION_MS = 5000;
/** At most this many at once; an older one makes room for a newer. */
const MAX_TOASTS = 3;

export const toasts = signal<readonly Toast[]>([]);
let nextId = 1;

export function dismissToast(id: number): void {
  toasts.value = toasts.value.filter((toast) => toast.id !== id);
}

/**
 * Confirms a finished action in a short note ("Partner Bravo created") that
 * screen readers announce through the region's polite live status, and that
 * goes by itself after TOAST_DURATION_MS.
 */
export function showToast(text: string): Toast {
  const toast = { id: nextId++, text };
  toasts.value = [...toasts.value, toast].slice(-MAX_TOASTS);
  setTimeout(() => dismissToast(toast.id), TOAST_DURATION_MS);
  return toast;
}

/**
 * Where toasts appear (bottom right; full width on a phone). The live region is
 * always in the page, empty or not: a region added together with its first
 * message is often not announced.
 */
export function ToastRegion() {
  useSignals();
  return (
    <div
      role="status"
      aria-live="polite"
      aria-label={t('toast.region')}
      className="pointer-events-none fixed inset-x-4 bottom-4 z-[60] flex flex-col items-stretch gap-2 sm:left-auto sm:w-96"
    >
      {toasts.value.map((toast) => (
        <div
          key={toast.id}
          className="pointer-events-auto flex items-center gap-3 rounded-lg bg-ink py-2 pr-2 pl-4 text-sm text-white shadow-lg"
        >
          <Icon name="check" className="size-4 shrink-0 text-emerald-400" />
          <span className="flex-1">{toast.text}</span>
          <IconButton label={t('button.close')} className="text-white/80 hover:bg-white/10 hover:text-white" onClick={() => dismissToast(toast.id)}>
            <Icon name="close" className="size-4" />
          </IconButton>
        </div>
      ))}
    </div>
  );
}
