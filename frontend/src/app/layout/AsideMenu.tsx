import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useId } from 'react';
import { Link, useLocation } from 'wouter';
import { Icon } from '../../components/icons';
import { t } from '../../lib/i18n';
import { currentUser } from '../../lib/session';
import { canOpen, sections, type Section } from '../sections';

// Group headings are small text, so they need 4.5:1 against the aside (slate-400 on slate-900, slate-500 on white).
const themes = {
  dark: { item: 'text-slate-300 hover:bg-white/10 hover:text-white', active: 'bg-indigo-600 text-white', heading: 'text-slate-400' },
  light: { item: 'text-slate-600 hover:bg-slate-100 hover:text-slate-900', active: 'bg-indigo-50 text-indigo-700', heading: 'text-slate-500' },
};

/**
 * How the menu shows its labels: always, never (icons only, the layout
 * builder's "minimise"), or only from the xl breakpoint (1280 px), so a
 * narrower window gives the table the width and keeps the icons.
 */
export type AsideLabels = 'shown' | 'hidden' | 'fromXl';

const labelClass: Record<AsideLabels, string> = { shown: '', hidden: 'sr-only', fromXl: 'sr-only xl:not-sr-only' };
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
  const visible = sections.filter((section) => canOpen(section, roleId));
  const colors = themes[theme];
  // The side menu and the phone drawer can both be in the page; each heading needs its own id.
  const requestsHeading = useId();
  const settingsHeading = useId();
  const settings = visible.filter((section) => section.menu === 'settings');
  // Menu counts (unread complaints) are read again on each navigation, so a screen's changes show.
  useEffect(() => {
    for (const section of visible) void section.badge?.refresh();
  }, [location, roleId]);

  const item = (section: Section) => {
    const active = location.toLowerCase().startsWith(section.path);
    const label = t(section.title);
    return (
      <li key={section.path}>
        <Link
          href={section.path}
          onClick={onNavigate}
          aria-current={active ? 'page' : undefined}
          title={labels === 'shown' ? undefined : label}
          className={`flex items-center gap-3 rounded-lg px-3 py-1.5 text-sm font-medium ${active ? colors.active : colors.item} ${itemLayout[labels]}`}
        >
          <Icon name={section.icon} className="size-5 shrink-0" />
          <span className={labelClass[labels]}>{label}</span>
          <MenuCount section={section} className={labelClass[labels]} />
        </Link>
      </li>
    );
  };

  return (
    <nav aria-label={t('menu.main')} className="flex-1 overflow-y-auto px-3 py-4">
      <ul className="space-y-0.5">{visible.filter((section) => section.menu === 'main').map(item)}</ul>
      <p className={`mt-5 mb-2 px-3 text-xs font-semibold tracking-wider uppercase ${colors.heading} ${labelClass[labels]}`} id={requestsHeading}>
        {t('menu.requests')}
      </p>
      <ul className="space-y-0.5" aria-labelledby={requestsHeading}>
        {visible.filter((section) => section.menu === 'requests').map(item)}
      </ul>
      {settings.length > 0 && (
        <>
          <p className={`mt-5 mb-2 px-3 text-xs font-semibold tracking-wider uppercase ${colors.heading} ${labelClass[labels]}`} id={settingsHeading}>
            {t('menu.settings')}
          </p>
          <ul className="space-y-0.5" aria-labelledby={settingsHeading}>
            {settings.map(item)}
          </ul>
        </>
      )}
    </nav>
  );
}

/** A section's count beside its label; none while it is zero or unknown. */
function MenuCount({ section, className }: { section: Section; className: string }) {
  useSignals();
  const count = section.badge?.count.value;
  if (!section.badge || !count) return null;
  return (
    <span className={`ml-auto rounded-full bg-rose-600 px-1.5 py-0.5 text-xs leading-none font-semibold text-white ${className}`}>
      {count}
      <span className="sr-only"> {t(section.badge.label)}</span>
    </span>
  );
}
