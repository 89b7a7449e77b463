import { useSignals } from '@preact/signals-react/runtime';
import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import { Button } from '../../components/Button';
import { t } from '../../lib/i18n';

/** Submit, and Cancel back to the sign-in screen. */
export function SubmitOrCancel({ busy, disabled = false }: { busy: boolean; disabled?: boolean }) {
  useSignals();
  const [, navigate] = useLocation();
  return (
    <div className="flex gap-3">
      <Button type="submit" variant="primary" className="flex-1" busy={busy} disabled={disabled}>
        {t('button.submit')}
      </Button>
      <Button className="flex-1" onClick={() => navigate('/auth/login')}>
        {t('button.cancel')}
      </Button>
    </div>
  );
}

/** Brand panel beside the form on wide screens; the form alone on a phone. */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  useSignals();
  return (
    <div className="flex min-h-full">
      <div className="hidden w-2/5 flex-col justify-between bg-gradient-to-br from-brand-950 via-brand-800 to-brand-600 p-12 text-white lg:flex">
        <p className="text-2xl font-extrabold tracking-tight">perkdesk</p>
        <p className="max-w-xs text-3xl leading-tight font-semibold">{t('auth.brand.tagline')}</p>
        <p className="text-sm text-white/85">© {new Date().getFullYear()} perkdesk</p>
      </div>
      <main className="flex flex-1 items-center justify-center bg-surface px-6 py-12">
        <div className="w-full max-w-sm">
          <p className="mb-8 text-2xl font-extrabold tracking-tight text-indigo-700 lg:hidden">perkdesk</p>
          <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
          {subtitle && <p className="mt-1 text-sm text-slate-500">{subtitle}</p>}
          <div className="mt-8">{children}</div>
        </div>
      </main>
    </div>
  );
}
