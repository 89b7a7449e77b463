import { useSignals } from '@preact/signals-react/runtime';
import { Suspense, useEffect } from 'react';
import { EmptyState } from '../components/EmptyState';
import { Spinner } from '../components/Spinner';
import { t } from '../lib/i18n';
import { currentUser } from '../lib/session';
import { canOpen, type Section } from './sections';

function PageSpinner() {
  useSignals();
  return (
    <div className="flex justify-center py-16 text-indigo-600">
      <Spinner label={t('app.loading')} className="size-8" />
    </div>
  );
}

/** One section of the route table: its screen, or "not for your role". */
export function SectionScreen({ section }: { section: Section }) {
  useSignals();
  const title = t(section.title);
  useEffect(() => {
    document.title = `${title} · perkdesk`;
  }, [title]);
  if (!canOpen(section, currentUser.value?.roleId)) {
    return (
      <SectionPlaceholder title={title} icon="alert" heading={t('forbidden.title')}>
        {t('forbidden.body')}
      </SectionPlaceholder>
    );
  }
  const Screen = section.screen;
  return (
    <Suspense fallback={<PageSpinner />}>
      <Screen />
    </Suspense>
  );
}

function SectionPlaceholder({ title, icon, heading, children }: { title: string; icon: Section['icon']; heading: string; children: string }) {
  return (
    <section className="space-y-4">
      <h1 className="text-lg font-semibold text-slate-900">{title}</h1>
      <EmptyState icon={icon} title={heading}>
        {children}
      </EmptyState>
    </section>
  );
}
