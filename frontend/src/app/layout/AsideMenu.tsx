import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId, useMemo } from 'react';
import { Link, useLocation } from 'wouter';
import { Icon } from '../../components/icons';
import { t } from '../../lib/i18n';
import { currentUser } from '../../lib/session';
import { canOpen, sections, type Section } from '../sections';

// Group headings are small text, so they need 4.5:1 against the aside (slate-400 on slate-900, slate-500 on white).
const themes = {
  dark: { item: 'text-white/80 hover:bg-white/10 hover:text-white', active: 'bg-accent text-white', heading: 'text-white/60' },
  light: { item: 'text-slate-600 hover:bg-slate-100 hover:text-slate-900', active: 'bg-indigo-50 text-indigo-700', heading: 'text-slate-500' },
};

/**
 * How the menu shows its labels: always, never (icons only, the layout
 * builder's "minimise"), or only from the xl breakpoint (1280 px), so a
 * narrower window gives the table the width and keeps the icons.
 */
export type AsideLabels = 'shown' | 'hidden' | 'fromXl';

const labelClass: Record<AsideLabels, string> = { shown: '', hidden: 'sr-only', fromXl: 'sr-only xl:not-sr-only' };
// In the icon-only menu a count sits on the icon (shown to the eye only: the label's count is read).
const iconBadgeClass: Record<AsideLabels, string> = { shown: 'hidden', hidden: '', fromXl: 'xl:hidden' };
const itemLayout: Record<AsideLabels, string> = { shown: '', hidden: 'justify-center', fromXl: 'justify-center xl:justify-start' };

/**
 * The aside's links, filtered by role: the spec's fifteen items in order, then
 * the two request screens (routes the spec lists without a menu entry) in a
 * Requests group, and the Admins' settings (API clients) in a Settings group.
 */
export function AsideMenu({ theme, labels, onNavigate }: { theme: 'dark' | 'light'; labels: AsideLabels; onNavigate?: () => void }) {
  useSignals();
  const [location] = useLocation();
  const roleId = currentUser.value?.roleId;
  const visible = useMemo(() => sections.filter((section) => canOpen(section, roleId)), [roleId]);
  const colors = themes[theme];
  // The side menu and the phone drawer can both be in the page; each heading needs its own id.
  const requestsHeading = useId();
  const settingsHeading = useId();
  const settings = visible.filter((section) => section.menu === 'settings');
  // Menu counts (unread complaints) are read again on each navigation, so a screen's changes show.
  useEffect(() => {
    for (const section of visible) void section.badge?.refresh();
  }, [location, visible]);
  // Each screen's code is fetched while the browser is idle after sign-in (and at once when the
  // pointer or focus reaches its item), so a first visit does not wait for it after the click.
  useEffect(() => prefetchWhenIdle(visible.map((section) => section.screen.preload)), [visible]);

  const item = (section: Section) => {
    const active = location.toLowerCase().startsWith(section.path);
    const label = t(section.title);
    return (
      <li key={section.path}>
        <Link
          href={section.path}
          onClick={onNavigate}
          onPointerEnter={() => void section.screen.preload()}
          onFocus={() => void section.screen.preload()}
          aria-current={active ? 'page' : undefined}
          title={labels === 'shown' ? undefined : label}
          className={`flex items-center gap-3 rounded-lg px-3 py-1.5 text-sm font-medium ${active ? colors.active : colors.item} ${itemLayout[labels]}`}
        >
          <span className="relative shrink-0">
            <Icon name={section.icon} className="size-5" />
            {labels !== 'shown' && <MenuCount section={section} onIcon className={iconBadgeClass[labels]} />}
          </span>
          <span className={labelClass[labels]}>{label}</span>
          <MenuCount section={section} className={labelClass[labels]} />
        </Link>
      </li>
    );
  };

  return (
    <nav aria-label={t('menu.main')} className="flex-1 overflow-y-auto px-3 py-4">
      <ul className="space-y-0.5">{visible.filter((section) => section.menu === 'main').map(item)}</ul>
      <GroupHeading id={requestsHeading} label={t('menu.requests')} className={`${colors.heading} ${labelClass[labels]}`} />
      <ul className="space-y-0.5" aria-labelledby={requestsHeading}>
        {visible.filter((section) => section.menu === 'requests').map(item)}
      </ul>
      {settings.length > 0 && (
        <>
          <GroupHeading id={settingsHeading} label={t('menu.settings')} className={`${colors.heading} ${labelClass[labels]}`} />
          <ul className="space-y-0.5" aria-labelledby={settingsHeading}>
            {settings.map(item)}
          </ul>
        </>
      )}
    </nav>
  );
}

/**
 * A group's heading (Requests, Settings). The spacing sits on a wrapper: the label's
 * `not-sr-only` (from 1280 px) resets its own margin and padding.
 */
function GroupHeading({ id, label, className }: { id: string; label: string; className: string }) {
  return (
    <div className="mt-5 mb-2 px-3">
      <p id={id} className={`text-xs font-semibold tracking-wider uppercase ${className}`}>
        {label}
      </p>
    </div>
  );
}

/** A section's count beside its label, or on its icon; none while it is zero or unknown. */
function MenuCount({ section, className, onIcon = false }: { section: Section; className: string; onIcon?: boolean }) {
  useSignals();
  const count = section.badge?.count.value;
  if (!section.badge || !count) return null;
  if (onIcon)
    return (
      <span
        aria-hidden="true"
        data-icon-badge=""
        className={`absolute -top-2 -right-2.5 min-w-4 rounded-full bg-rose-600 px-1 py-0.5 text-center text-[10px] leading-none font-semibold text-white ${className}`}
      >
        {count > 99 ? '99+' : count}
      </span>
    );
  return (
    <span className={`ml-auto rounded-full bg-rose-600 px-1.5 py-0.5 text-xs leading-none font-semibold text-white ${className}`}>
      {count}
      <span className="sr-only"> {t(section.badge.label)}</span>
    </span>
  );
}

/** Runs each fetch in turn while the browser has nothing else to do; stops when the menu unmounts. */
function prefetchWhenIdle(fetches: (() => Promise<unknown>)[]): () => void {
  let stopped = false;
  // Safari has no requestIdleCallback: a short pause stands in for it there.
  const idle = (next: () => void) =>
    typeof window.requestIdleCallback === 'function' ? window.requestIdleCallback(next, { timeout: 2000 }) : setTimeout(next, 200);
  const step = (index: number) => {
    if (stopped || index >= fetches.length) return;
    fetches[index]().then(
      () => idle(() => step(index + 1)),
      () => idle(() => step(index + 1)),
    );
  };
  idle(() => step(0));
  return () => {
    stopped = true;
  };
}
