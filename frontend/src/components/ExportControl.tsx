import { useSignals } from '@preact/signals-react/runtime';
import { useId, useState } from 'react';
import { errorMessage, type Query } from '../lib/api';
import { downloadFile, saveBlob, type DownloadProgress } from '../lib/download';
import { t } from '../lib/i18n';
import { Alert } from './Alert';
import { Button } from './Button';
import { Dialog, DialogActions } from './Dialog';
import { DateInput } from './form/DateInputs';
import { FieldShell } from './form/inputs';
import { Icon } from './icons';

export interface ExportSpec {
  /** Saved under this name unless the server's Content-Disposition names the file. */
  fileName: string;
  /** Defaults to `{resource}/export`. */
  path?: string;
  /** Ask for a date range first, sent under these query names. */
  dateRange?: { startParam: string; endParam: string };
}

function formatBytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function useDownload(fileName: string) {
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const start = async (path: string, query: Query): Promise<boolean> => {
    setError(null);
    setProgress({ received: 0, total: null });
    try {
      const file = await downloadFile(path, query, setProgress);
      saveBlob(file.blob, file.fileName ?? fileName);
      return true;
    } catch (failure) {
      setError(errorMessage(failure));
      return false;
    } finally {
      setProgress(null);
    }
  };
  return { progress, error, start };
}

function ProgressBar({ progress }: { progress: DownloadProgress }) {
  useSignals();
  const percent = progress.total ? Math.min(100, Math.round((progress.received / progress.total) * 100)) : null;
  const text = percent === null ? t('export.progressUnknown', { size: formatBytes(progress.received) }) : t('export.progress', { percent });
  return (
    <div className="flex min-w-40 flex-col gap-1">
      <div
        role="progressbar"
        aria-label={text}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div className={`h-full bg-indigo-600 ${percent === null ? 'w-1/3 animate-pulse' : ''}`} style={percent === null ? undefined : { width: `${percent}%` }} />
      </div>
      <span className="text-xs text-slate-600">{text}</span>
    </div>
  );
}

/** The toolbar's Export: a direct download, or a date-range dialog first; both show real progress. */
export function ExportControl({ spec, basePath, filterQuery }: { spec: ExportSpec; basePath: string; filterQuery: Query }) {
  useSignals();
  const download = useDownload(spec.fileName);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [range, setRange] = useState({ start: '', end: '' });
  const idPrefix = useId();
  const path = spec.path ?? `${basePath}/export`;
  const busy = download.progress !== null;

  if (!spec.dateRange) {
    return (
      <div className="flex items-center gap-3">
        <Button onClick={() => void download.start(path, filterQuery)} busy={busy}>
          <Icon name="download" className="size-4" />
          {t('button.export')}
        </Button>
        {download.progress && <ProgressBar progress={download.progress} />}
        {download.error && <Alert tone="danger">{download.error}</Alert>}
      </div>
    );
  }

  const { startParam, endParam } = spec.dateRange;
  const submit = async () => {
    const done = await download.start(path, { ...filterQuery, [startParam]: range.start, [endParam]: range.end });
    if (done) setDialogOpen(false);
  };
  return (
    <>
      <Button onClick={() => setDialogOpen(true)}>
        <Icon name="download" className="size-4" />
        {t('button.export')}
      </Button>
      <Dialog open={dialogOpen} onClose={() => !busy && setDialogOpen(false)} title={t('export.title')} size="sm">
        <div className="grid gap-4">
          {(['start', 'end'] as const).map((bound) => (
            <FieldShell key={bound} id={`${idPrefix}-${bound}`} label={t(bound === 'start' ? 'export.startDate' : 'export.endDate')}>
              <DateInput
                id={`${idPrefix}-${bound}`}
                value={range[bound]}
                onChange={(value) => setRange((current) => ({ ...current, [bound]: value }))}
                onBlur={() => undefined}
                invalid={false}
              />
            </FieldShell>
          ))}
          {download.progress && <ProgressBar progress={download.progress} />}
          {download.error && <Alert tone="danger">{download.error}</Alert>}
        </div>
        <DialogActions>
          <Button onClick={() => setDialogOpen(false)} disabled={busy}>
            {t('button.cancel')}
          </Button>
          <Button variant="primary" busy={busy} disabled={!range.start || !range.end} onClick={() => void submit()}>
            {t('button.download')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
