import { useSignals } from '@preact/signals-react/runtime';
import { Link, useLocation } from 'wouter';
import { Icon } from '../../components/icons';
import { t } from '../../lib/i18n';
import { currentUser } from '../../lib/session';
import { canOpen, sections, type Section } from '../sections';

const themes = {
  dark: { item: 'text-slate-300 hover:bg-white/10 hover:text-white', active: 'bg-indigo-600 text-white', heading: 'text-slate-500' },
  light: { item: 'text-slate-600 hover:bg-slate-100 hover:text-slate-900', active: 'bg-indigo-50 text-indigo-700', heading: 'text-slate-400' },
};

/**
 * The aside's links, filtered by role: the spec's fifteen items in order, then
 * the two request screens (routes the spec lists without a menu entry) in a
 * Requests group.
 */
export function AsideMenu({ theme, minimized, onNavigate }: { theme: 'dark' | 'light'; minimized: boolean; onNavigate?: () => void }) {
  useSignals();
  const [location] = useLocation();
  const roleId = currentUser.value?.roleId;
  const visible = sections.filter((section) => canOpen(section, roleId));
  const colors = themes[theme];

  const item = (section: Section) => {
    const active = location.toLowerCase().startsWith(section.path);
    const label = t(section.title);
    return (
      <li key={section.path}>
        <Link
          href={section.path}
          onClick={onNavigate}
          aria-current={active ? 'page' : undefined}
          title={minimized ? label : undefined}
          className={`flex items-center gap-3 rounded-lg px-3 py-1.5 text-sm font-medium ${active ? colors.active : colors.item} ${minimized ? 'justify-center' : ''}`}
        >
          <Icon name={section.icon} className="size-5 shrink-0" />
          <span className={minimized ? 'sr-only' : ''}>{label}</span>
        </Link>
      </li>
    );
  };

  return (
    <nav aria-label={t('menu.main')} className="flex-1 overflow-y-auto px-3 py-4">
      <ul className="space-y-0.5">{visible.filter((section) => section.menu === 'main').map(item)}</ul>
      <p className={`mt-5 mb-2 px-3 text-xs font-semibold tracking-wider uppercase ${colors.heading} ${minimized ? 'sr-only' : ''}`} id="menu-requests">
        {t('menu.requests')}
      </p>
      <ul className="space-y-0.5" aria-labelledby="menu-requests">
        {visible.filter((section) => section.menu === 'requests').map(item)}
      </ul>
    </nav>
  );
}
