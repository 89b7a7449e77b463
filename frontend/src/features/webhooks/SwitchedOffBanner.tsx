import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect } from 'react';
import { Link, useLocation } from 'wouter';
import { Alert } from '../../components/Alert';
import { api } from '../../lib/api';
import { t } from '../../lib/i18n';
import { Role } from '../../lib/roles';
import { currentUser } from '../../lib/session';
import type { WebhookRow } from './schemas';

/** How many it names; the count says the rest. */
const NAMED = 5;

/** The endpoints the server switched off (`GET webhook/filter?State=disabled`): their count and the first addresses. */
export const switchedOff = signal<{ totalCount: number; urls: string[] } | null>(null);

/** Reads the switched-off endpoints again; a failure keeps what was known (the screens report their own failures). */
export async function refreshSwitchedOff(): Promise<void> {
  try {
    const page = await api.list<WebhookRow>('webhook/filter', { State: 'disabled', Take: NAMED });
    switchedOff.value = { totalCount: page.totalCount, urls: page.data.map((webhook) => webhook.url) };
  } catch {
    // Kept as it was.
  }
}

/**
 * Above every screen, for Admins: the webhook endpoints the server switched off after they failed
 * for too long, which get no events until someone switches them on, with a link to them on the
 * Webhooks screen. Read again on each navigation, as the menu's counts are, and after a change on
 * that screen. A danger alert, as a failed backup's would be: announced by assistive technology.
 */
export function SwitchedOffBanner() {
  useSignals();
  const [location] = useLocation();
  const isAdmin = currentUser.value?.roleId === Role.Admin;
  useEffect(() => {
    if (isAdmin) void refreshSwitchedOff();
  }, [location, isAdmin]);
  const known = switchedOff.value;
  if (!isAdmin || !known || known.totalCount === 0) return null;
  const urls = known.urls.join(', ') + (known.totalCount > known.urls.length ? ', …' : '');
  return (
    <div className="mb-4" data-webhooks-banner="">
      <Alert tone="danger">
        <p className="font-semibold">{t('webhooks.banner.title', { count: known.totalCount })}</p>
        <p className="wrap-anywhere">{t('webhooks.banner.body', { urls })}</p>
        <Link href="/webhooks?state=disabled" className="font-semibold underline hover:no-underline">
          {t('webhooks.banner.link')}
        </Link>
      </Alert>
    </div>
  );
}
