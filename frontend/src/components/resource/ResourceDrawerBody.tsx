import { useSignals } from '@preact/signals-react/runtime';
import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { useState } from 'react';
import { t } from '../../lib/i18n';
import { HistoryPanel } from '../activity/HistoryPanel';
import { Alert } from '../Alert';
import { DetailList } from '../Drawer';
import { Spinner } from '../Spinner';
import { TAB_CLASS } from '../tabs';
import { RowChoiceCell } from './RowSwitchCell';
import type { DrawerSpec, ResourceRow } from './types';

/** A record's drawer: its declared details (a `choice` among them a select for editors), and its History tab. */
export function ResourceDrawerBody<Row extends ResourceRow>({
  spec,
  row,
  rowLabel,
  writable,
  history,
  reloadToken,
  loading,
  error,
  onChanged,
}: {
  spec: DrawerSpec<Row>;
  row: Row;
  rowLabel: string;
  /** Editors get an item's `choice` as a select. */
  writable: boolean;
  /** The record's History tab beside its details, unless the screen has none. */
  history: { itemPath: string; id: number } | null;
  /** Changes when the record was changed in the drawer: its tabs read what they show again. */
  reloadToken: number;
  loading: boolean;
  error: string | null;
  /** After a choice made in the drawer: the record and the list are read again. */
  onChanged: (confirmation: string) => void;
}) {
  useSignals();
  const [failure, setFailure] = useState<string | null>(null);
  const value = (item: NonNullable<typeof spec.items>[number]) =>
    item.choice && writable ? (
      <RowChoiceCell
        row={row}
        spec={item.choice}
        rowLabel={rowLabel}
        onFail={setFailure}
        onDone={(confirmation) => {
          setFailure(null);
          onChanged(confirmation);
        }}
      />
    ) : (
      item.value(row)
    );
  const details = (
    <div className="space-y-4">
      {loading && <Spinner label={t('app.loading')} className="size-4" />}
      {error && <Alert tone="danger">{error}</Alert>}
      {failure && <Alert tone="danger">{failure}</Alert>}
      {spec.render ? spec.render(row) : <DetailList items={(spec.items ?? []).map((item) => ({ label: t(item.label), value: value(item) }))} />}
      {spec.after?.(row)}
    </div>
  );
  const onTabChanged = (confirmation: string) => {
    setFailure(null);
    onChanged(confirmation);
  };
  const tabs = [
    ...(spec.tabs ?? []).map((tab) => ({ label: t(tab.label), body: tab.render(row, { onChanged: onTabChanged, reloadToken }) })),
    // Loaded when first opened: most drawers are read for their details.
    ...(history
      ? [{ label: t('history.tab'), body: <HistoryPanel itemPath={history.itemPath} id={history.id} reloadToken={reloadToken} /> }]
      : []),
  ];
  if (tabs.length === 0) return details;
  return (
    <TabGroup>
      <TabList className="mb-4 flex gap-1 border-b border-slate-200">
        <Tab className={TAB_CLASS}>{t('history.detailsTab')}</Tab>
        {tabs.map((tab) => (
          <Tab key={tab.label} className={TAB_CLASS}>
            {tab.label}
          </Tab>
        ))}
      </TabList>
      <TabPanels>
        <TabPanel className="focus:outline-none">{details}</TabPanel>
        {tabs.map((tab) => (
          <TabPanel key={tab.label} className="focus:outline-none" unmount>
            {tab.body}
          </TabPanel>
        ))}
      </TabPanels>
    </TabGroup>
  );
}
