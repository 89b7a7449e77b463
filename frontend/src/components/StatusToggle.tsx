import { Switch } from '@headlessui/react';
import { useSignals } from '@preact/signals-react/runtime';
import { useState, type ReactNode } from 'react';
import { t } from '../lib/i18n';

/** The badge's words when they are not Active / Inactive (a complaint's Read / Unread). */
export interface StatusWords {
  on: string;
  off: string;
}

const badgeTones = {
  on: 'bg-emerald-50 text-emerald-800',
  off: 'bg-slate-100 text-slate-700',
  // Off, and not by anyone's choice (a webhook the server switched off): it wants attention.
  alarm: 'bg-red-50 text-red-800',
} as const;

export function StatusBadge({ active, words, alarm = false }: { active: boolean; words?: StatusWords; alarm?: boolean }) {
  useSignals();
  return (
    <span
      // One width for both words, so a page of inactive rows does not move the columns.
      className={`inline-flex min-w-15 justify-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${
        badgeTones[active ? 'on' : alarm ? 'alarm' : 'off']
      }`}
    >
      {words ? (active ? words.on : words.off) : active ? t('table.active') : t('table.inactive')}
    </span>
  );
}

/** Sends the opposite of the current state; the caller reloads the list afterwards. */
export function StatusToggle({
  active,
  label,
  disabledReason,
  onToggle,
  words,
  badge,
}: {
  active: boolean;
  words?: StatusWords;
  /** The badge beside the switch when it says more than on or off (a webhook paused, or switched off by the server). */
  badge?: ReactNode;
  /** The accessible name, e.g. "Change status: Jane Doe". */
  label: string;
  /** Set when switching could only fail (the signed-in user's own account): disabled, and says why. */
  disabledReason?: string;
  onToggle: (next: boolean) => Promise<unknown>;
}) {
  useSignals();
  const [busy, setBusy] = useState(false);
  const toggle = async () => {
    setBusy(true);
    try {
      await onToggle(!active);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex items-center gap-1.5" title={disabledReason}>
      <Switch
        checked={active}
        onChange={toggle}
        disabled={busy || Boolean(disabledReason)}
        aria-label={label}
        aria-description={disabledReason}
        className="group relative inline-flex h-5 w-9 shrink-0 rounded-full bg-slate-300 transition-colors data-checked:bg-emerald-500 data-disabled:opacity-60"
      >
        <span className="size-4 translate-x-0.5 self-center rounded-full bg-white shadow transition-transform group-data-checked:translate-x-4.5" />
      </Switch>
      {badge ?? <StatusBadge active={active} words={words} />}
    </div>
  );
}
