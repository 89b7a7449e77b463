import { useSignals } from '@preact/signals-react/runtime';
import { Link } from 'wouter';
import { buttonClass } from '../components/Button';
import { t, type MessageKey } from '../lib/i18n';

/** v1, v3 and v5 are "page not found"; v2, v4 and v6 are "something went wrong". */
const variants: Record<string, { code: string; title: MessageKey; body: MessageKey; tone: string }> = {
  'error-v1': { code: '404', title: 'error.notFound.title', body: 'error.notFound.body', tone: 'from-indigo-600 to-sky-500' },
  'error-v2': { code: '500', title: 'error.failed.title', body: 'error.failed.body', tone: 'from-rose-600 to-orange-500' },
  'error-v3': { code: '404', title: 'error.notFound.title', body: 'error.notFound.body', tone: 'from-slate-800 to-slate-600' },
  'error-v4': { code: '500', title: 'error.failed.title', body: 'error.failed.body', tone: 'from-violet-700 to-fuchsia-500' },
  'error-v5': { code: '404', title: 'error.notFound.title', body: 'error.notFound.body', tone: 'from-emerald-600 to-teal-500' },
  'error-v6': { code: '500', title: 'error.failed.title', body: 'error.failed.body', tone: 'from-amber-600 to-yellow-500' },
};

export function ErrorPage({ variant }: { variant: string }) {
  useSignals();
  const page = variants[variant] ?? variants['error-v5'];
  return (
    <main className={`flex min-h-screen flex-col items-center justify-center gap-6 bg-gradient-to-br px-6 text-center text-white ${page.tone}`}>
      <p className="text-8xl font-black tracking-tight opacity-90" aria-hidden="true">
        {page.code}
      </p>
      <h1 className="text-3xl font-semibold">{t(page.title)}</h1>
      <p className="max-w-md text-white/85">{t(page.body)}</p>
      <Link href="/" className={buttonClass('secondary')}>
        {t('error.goHome')}
      </Link>
    </main>
  );
}
