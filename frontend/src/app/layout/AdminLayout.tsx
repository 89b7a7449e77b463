import { Dialog, DialogBackdrop, DialogPanel } from '@headlessui/react';
import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { IconButton } from '../../components/Button';
import { Icon } from '../../components/icons';
import { t } from '../../lib/i18n';
import { layoutConfig } from '../../lib/layoutConfig';
import { currentUser } from '../../lib/session';
import { SwitchedOffBanner } from '../../features/webhooks/SwitchedOffBanner';
import { SectionScreen } from '../SectionScreen';
import { homePath, sectionAt, sections } from '../sections';
import { AsideMenu, type AsideLabels } from './AsideMenu';
import { LanguageMenu } from './LanguageMenu';
import { UserMenu } from './UserMenu';

const asideColors = { dark: 'bg-ink text-white', light: 'border-r border-slate-200 bg-surface text-slate-900' };

function Brand({ labels = 'shown' }: { labels?: AsideLabels }) {
  const name = { shown: '', hidden: 'sr-only', fromXl: 'sr-only xl:not-sr-only' }[labels];
  return (
    <Link href="/" className="flex h-16 items-center gap-2 px-5 text-lg font-extrabold tracking-tight">
      <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-accent text-white" aria-hidden="true">
        p
      </span>
      <span className={name}>perkdesk</span>
    </Link>
  );
}

const MAIN_ID = 'main-content';

/**
 * After a choice in the side menu, focus moves to the new screen's main region, so the next Tab
 * reaches the screen's own controls instead of walking the rest of the menu first.
 */
function focusMain() {
  requestAnimationFrame(() => document.getElementById(MAIN_ID)?.focus({ preventScroll: true }));
}

/** The signed-in frame: aside menu, header, subheader, the section's screen and the footer, as the layout builder set them. */
export default function AdminLayout() {
  useSignals();
  const config = layoutConfig.value;
  const user = currentUser.value;
  const [location] = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  if (!user) return null;

  const section = sectionAt(location);
  const asideOnDesktop = config.aside.display;
  // Below 1280 px the full menu would take a quarter of the window from the tables: it keeps its icons only.
  const asideLabels: AsideLabels = config.aside.minimized ? 'hidden' : 'fromXl';
  const asideWidth = config.aside.minimized ? 'lg:w-20' : 'lg:w-20 xl:w-64';

  return (
    <div className="flex min-h-full">
      <a
        href={`#${MAIN_ID}`}
        className="sr-only z-50 rounded-lg bg-surface px-4 py-2 text-sm font-semibold text-indigo-700 shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        {t('skip.toContent')}
      </a>
      {asideOnDesktop && (
        <aside className={`hidden shrink-0 flex-col lg:flex ${asideWidth} ${asideColors[config.aside.theme]} sticky top-0 h-screen`}>
          <Brand labels={asideLabels} />
          <AsideMenu theme={config.aside.theme} labels={asideLabels} onNavigate={focusMain} />
        </aside>
      )}

      <Dialog open={drawerOpen} onClose={() => setDrawerOpen(false)} aria-label={t('menu.main')} className="relative z-50">
        <DialogBackdrop className="fixed inset-0 bg-ink/50" />
        <DialogPanel className={`fixed inset-y-0 left-0 flex w-72 max-w-[85vw] flex-col ${asideColors[config.aside.theme]}`}>
          <div className="flex items-center justify-between pr-3">
            <Brand />
            <IconButton label={t('header.closeMenu')} onClick={() => setDrawerOpen(false)}>
              <Icon name="close" />
            </IconButton>
          </div>
          <AsideMenu theme={config.aside.theme} labels="shown" onNavigate={() => setDrawerOpen(false)} />
        </DialogPanel>
      </Dialog>

      <div className="flex min-w-0 flex-1 flex-col">
        <header
          className={`z-30 flex h-16 items-center gap-3 border-b border-slate-200 bg-surface px-4 ${config.header.fixed ? 'sticky top-0' : ''}`}
        >
          <IconButton label={t('header.openMenu')} className={asideOnDesktop ? 'lg:hidden' : ''} onClick={() => setDrawerOpen(true)}>
            <Icon name="menu" />
          </IconButton>
          <div className="flex-1" />
          <LanguageMenu />
          {config.header.greeting && (
            <p className="hidden text-sm text-slate-600 sm:block">
              {t('header.greeting', { name: `${user.firstName} ${user.lastName}` })}
            </p>
          )}
          <UserMenu user={user} />
        </header>

        {config.subheader.display && (
          <div className="flex h-12 items-center border-b border-slate-200 bg-surface/70 px-4 text-sm">
            {config.subheader.breadcrumbs ? (
              <nav aria-label={t('header.breadcrumb')}>
                <ol className="flex items-center gap-2 text-slate-500">
                  <li>
                    <Link href="/" className="hover:text-indigo-600">
                      {t('breadcrumb.home')}
                    </Link>
                  </li>
                  {section && (
                    <>
                      <li aria-hidden="true">/</li>
                      <li aria-current="page" className="font-medium text-slate-800">
                        {t(section.title)}
                      </li>
                    </>
                  )}
                </ol>
              </nav>
            ) : (
              <span className="font-medium text-slate-800">{section ? t(section.title) : ''}</span>
            )}
          </div>
        )}

        <main id={MAIN_ID} tabIndex={-1} className={`flex-1 p-4 outline-none sm:p-6 ${config.content.width === 'fixed' ? 'mx-auto w-full max-w-6xl' : ''}`}>
          <SwitchedOffBanner />
          <Switch>
            <Route path="/">
              <Redirect to={homePath(user.roleId)} replace />
            </Route>
            {sections.map((entry) => (
              <Route key={entry.path} path={entry.path}>
                <SectionScreen section={entry} />
              </Route>
            ))}
          </Switch>
        </main>

        {config.footer.display && (
          <footer
            className={`flex h-14 items-center justify-between gap-4 border-t border-slate-200 bg-surface px-4 text-xs text-slate-600 ${
              config.footer.fixed ? 'sticky bottom-0 z-20' : ''
            }`}
          >
            <span>© {new Date().getFullYear()} perkdesk. {t('footer.rights')}</span>
            <Link href="/privacy" className="hover:text-indigo-600">
              {t('footer.privacy')}
            </Link>
          </footer>
        )}
      </div>
    </div>
  );
}
