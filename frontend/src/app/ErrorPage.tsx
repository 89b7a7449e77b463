import { useSignals } from '@preact/signals-react/runtime';
import { Link } from 'wouter';
import { buttonClass } from '../components/Button';
import { t, type MessageKey } from '../lib/i18n';

/**
 * v1, v3 and v5 are "page not found"; v2, v4 and v6 are "something went wrong".
 * All wear the brand's indigo, like the sign-in screen: an error page is still perkdesk.
 */
const variants: Record<string, { code: string; title: MessageKey; body: MessageKey }> = {
  'error-v1': { code: '404', title: 'error.notFound.title', body: 'error.notFound.body' },
  'error-v2': { code: '500', title: 'error.failed.title', body: 'error.failed.body' },
  'error-v3': { code: '404', title: 'error.notFound.title', body: 'error.notFound.body' },
  'error-v4': { code: '500', title: 'error.failed.title', body: 'error.failed.body' },
  'error-v5': { code: '404', title: 'error.notFound.title', body: 'error.notFound.body' },
  'error-v6': { code: '500', title: 'error.failed.title', body: 'error.failed.body' },
};

export function ErrorPage({ variant }: { variant: string }) {
  useSignals();
  const page = variants[variant] ?? variants['error-v5'];
  return (
    <main className={`flex min-h-screen flex-col items-center justify-center gap-6 bg-gradient-to-br from-brand-950 via-brand-800 to-brand-600 px-6 text-center text-white`}>
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
