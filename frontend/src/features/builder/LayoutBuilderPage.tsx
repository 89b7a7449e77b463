import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { useSignals } from '@preact/signals-react/runtime';
import { useState, type ReactNode } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { PageCard } from '../../components/PageCard';
import { t, type MessageKey } from '../../lib/i18n';
import { applyLayout, defaultLayoutConfig, layoutConfig, resetLayout, type LayoutConfig } from '../../lib/layoutConfig';

type Part = keyof LayoutConfig;

function Toggle({ label, checked, onChange }: { label: MessageKey; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="flex items-center gap-3 text-sm text-slate-700">
      <input type="checkbox" className="size-4 rounded border-slate-300" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      {t(label)}
    </label>
  );
}

function Choice<T extends string>({
  legend,
  value,
  options,
  onChange,
}: {
  legend: MessageKey;
  value: T;
  options: { value: T; label: MessageKey }[];
  onChange: (value: T) => void;
}) {
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium text-slate-700">{t(legend)}</legend>
      <div className="flex flex-col gap-2">
        {options.map((option) => (
          <label key={option.value} className="flex items-center gap-3 text-sm text-slate-700">
            <input type="radio" name={legend} checked={value === option.value} onChange={() => onChange(option.value)} />
            {t(option.label)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** /builder: edits a draft of the layout; Preview applies and saves it, Reset restores the defaults. */
export default function LayoutBuilderPage() {
  useSignals();
  const [draft, setDraft] = useState<LayoutConfig>(layoutConfig.value);
  const [message, setMessage] = useState<MessageKey | null>(null);
  const set = <P extends Part>(part: P, change: Partial<LayoutConfig[P]>) =>
    setDraft((current) => ({ ...current, [part]: { ...current[part], ...change } }));

  const tabs: { label: MessageKey; body: ReactNode }[] = [
    {
      label: 'builder.tab.header',
      body: (
        <>
          <Toggle label="builder.header.fixed" checked={draft.header.fixed} onChange={(fixed) => set('header', { fixed })} />
          <Toggle label="builder.header.greeting" checked={draft.header.greeting} onChange={(greeting) => set('header', { greeting })} />
        </>
      ),
    },
    {
      label: 'builder.tab.subheader',
      body: (
        <>
          <Toggle label="builder.subheader.display" checked={draft.subheader.display} onChange={(display) => set('subheader', { display })} />
          <Toggle
            label="builder.subheader.breadcrumbs"
            checked={draft.subheader.breadcrumbs}
            onChange={(breadcrumbs) => set('subheader', { breadcrumbs })}
          />
        </>
      ),
    },
    {
      label: 'builder.tab.content',
      body: (
        <Choice
          legend="builder.content.width"
          value={draft.content.width}
          options={[
            { value: 'fluid', label: 'builder.content.fluid' },
            { value: 'fixed', label: 'builder.content.fixed' },
          ]}
          onChange={(width) => set('content', { width })}
        />
      ),
    },
    {
      label: 'builder.tab.aside',
      body: (
        <>
          <Toggle label="builder.aside.display" checked={draft.aside.display} onChange={(display) => set('aside', { display })} />
          <Toggle label="builder.aside.minimized" checked={draft.aside.minimized} onChange={(minimized) => set('aside', { minimized })} />
          <Choice
            legend="builder.aside.theme"
            value={draft.aside.theme}
            options={[
              { value: 'dark', label: 'builder.aside.dark' },
              { value: 'light', label: 'builder.aside.light' },
            ]}
            onChange={(theme) => set('aside', { theme })}
          />
        </>
      ),
    },
    {
      label: 'builder.tab.footer',
      body: (
        <>
          <Toggle label="builder.footer.display" checked={draft.footer.display} onChange={(display) => set('footer', { display })} />
          <Toggle label="builder.footer.fixed" checked={draft.footer.fixed} onChange={(fixed) => set('footer', { fixed })} />
        </>
      ),
    },
  ];

  return (
    <PageCard title={t('builder.title')} intro={t('builder.intro')}>
      <TabGroup className="px-5 py-4">
        <TabList className="flex flex-wrap gap-1 border-b border-slate-200">
          {tabs.map((tab) => (
            <Tab
              key={tab.label}
              className="-mb-px border-b-2 border-transparent px-4 py-2 text-sm font-medium text-slate-500 data-hover:text-slate-800 data-selected:border-indigo-600 data-selected:text-indigo-700"
            >
              {t(tab.label)}
            </Tab>
          ))}
        </TabList>
        <TabPanels className="py-5">
          {tabs.map((tab) => (
            <TabPanel key={tab.label} className="flex flex-col gap-4">
              {tab.body}
            </TabPanel>
          ))}
        </TabPanels>
      </TabGroup>
      <div className="flex flex-col gap-3 border-t border-slate-200 px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
        <div aria-live="polite">{message && <Alert tone="success">{t(message)}</Alert>}</div>
        <div className="flex gap-2">
          <Button
            onClick={() => {
              resetLayout();
              setDraft(defaultLayoutConfig());
              setMessage('builder.resetDone');
            }}
          >
            {t('button.reset')}
          </Button>
          <Button
            variant="primary"
            onClick={() => {
              applyLayout(draft);
              setMessage('builder.saved');
            }}
          >
            {t('button.preview')}
          </Button>
        </div>
      </div>
    </PageCard>
  );
}
