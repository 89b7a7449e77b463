import { useSignals } from '@preact/signals-react/runtime';
import { useId } from 'react';
import { t } from '../../lib/i18n';
import { CopyButton } from '../CopyButton';

/** A base32 key in groups of four ("JBSW Y3DP EHPK 3PXP"), as it is read out or typed in group by group. */
export function groupedKey(secret: string): string {
  return (secret.replace(/[\s=]+/g, '').match(/.{1,4}/g) ?? []).join(' ');
}

/**
 * The key of a new authenticator beside its QR code, for an app that cannot scan (or a person who
 * is told it by phone): grouped for reading aloud, copied whole as the app takes it.
 */
export function AuthenticatorKey({ secret }: { secret: string }) {
  useSignals();
  const titleId = useId();
  return (
    <div role="group" aria-labelledby={titleId} className="w-full space-y-2 rounded-md bg-slate-50 px-4 py-3 text-left">
      <p id={titleId} className="text-sm font-semibold text-slate-900">
        {t('authenticator.key')}
      </p>
      <p className="text-xs text-slate-600">{t('authenticator.keyHelp')}</p>
      <div className="flex flex-wrap items-center gap-3">
        <code className="font-mono text-base tracking-wider break-words text-slate-900">{groupedKey(secret)}</code>
        <CopyButton text={secret.replace(/[\s=]+/g, '')} />
      </div>
    </div>
  );
}
