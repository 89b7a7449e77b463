import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { formatDateTime } from '../../lib/dates';
import { t } from '../../lib/i18n';
import { Alert } from '../Alert';
import { Button } from '../Button';
import { useListData } from '../resource/useRemoteData';
import { Spinner } from '../Spinner';
import { actionLabel, actorText, type ActivityRow } from './activityText';
import { ChangeList } from './ChangeList';

const PAGE = 20;

/**
 * One record's history (`GET {itemPath}/{id}/history`), newest first, twenty
 * entries at a time: when, what, who, and the fields each change touched.
 * `reloadToken` reads it again after a change made in the drawer.
 */
export function HistoryPanel({ itemPath, id, reloadToken = 0 }: { itemPath: string; id: number; reloadToken?: number }) {
  useSignals();
  const [pages, setPages] = useState(1);
  const history = useListData<ActivityRow>(`${itemPath}/${id}/history`, { Skip: 0, Take: PAGE * pages }, reloadToken);

  if (history.status === 'error') return <Alert tone="danger">{`${t('history.failed')} ${history.error ?? ''}`}</Alert>;
  if (!history.counted) return <Spinner label={t('app.loading')} className="size-4" />;
  if (history.totalCount === 0) return <p className="text-sm text-slate-600">{t('history.empty')}</p>;
  return (
    <div>
      <ol className="space-y-3" aria-label={t('history.tab')}>
        {history.rows.map((entry) => (
          <li key={entry.id} className="rounded-lg border border-slate-200 px-3 py-2">
            <p className="text-sm font-medium text-slate-900">
              {t('history.entry', { action: actionLabel(entry.action), who: actorText(entry) })}
            </p>
            <p className="text-xs text-slate-600">
              <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
            </p>
            <ChangeList changes={entry.changes} />
          </li>
        ))}
      </ol>
      {history.rows.length < history.totalCount && (
        <div className="mt-3">
          <Button onClick={() => setPages((count) => count + 1)} disabled={history.status === 'loading'}>
            {t('history.more')}
          </Button>
        </div>
      )}
    </div>
  );
}
