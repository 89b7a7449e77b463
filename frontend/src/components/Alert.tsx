import type { ReactNode } from 'react';
import { Icon } from './icons';

const tones = {
  danger: 'border-red-200 bg-red-50 text-red-800',
  info: 'border-sky-200 bg-sky-50 text-sky-800',
  success: 'border-emerald-200 bg-emerald-50 text-emerald-800',
} as const;

export type AlertTone = keyof typeof tones;

/** Danger alerts are announced at once (role=alert); the others politely (role=status). */
export function Alert({ tone, children }: { tone: AlertTone; children: ReactNode }) {
  return (
    <div
      role={tone === 'danger' ? 'alert' : 'status'}
      data-tone={tone}
      className={`flex items-start gap-2 rounded-lg border px-3 py-2 text-sm ${tones[tone]}`}
    >
      <Icon name={tone === 'success' ? 'check' : tone === 'info' ? 'info' : 'alert'} className="mt-0.5 size-4 shrink-0" />
      <div>{children}</div>
    </div>
  );
}
