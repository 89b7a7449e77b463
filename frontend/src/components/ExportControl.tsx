import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { errorMessage, type Query } from '../lib/api';
import { localDayEnd, localDayStart } from '../lib/dates';
import { downloadFile, saveBlob, type DownloadProgress } from '../lib/download';
import { formatNumber, t } from '../lib/i18n';
import { MESSAGES, required, type Schema } from '../lib/validation';
import { Alert } from './Alert';
import { Button } from './Button';
import type { FieldDef } from './form/types';
import { FormDialog } from './FormDialog';
import { Icon } from './icons';

export interface ExportSpec {
  /** Saved under this name unless the server's Content-Disposition names the file. */
  fileName: string;
  /** Defaults to `{resource}/export`. */
  path?: string;
  /** Ask for a date range first, sent under these query names. */
  dateRange?: { startParam: string; endParam: string };
  /** Ask for other values first (the employee export's asset): a form whose values become query parameters. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each export's form has its own value type
  form?: ExportForm<any>;
}

export interface ExportForm<V extends object> {
  fields: readonly FieldDef<V>[];
  schema: Schema<V>;
  initialValues: () => V;
  /** The query parameters the values add to the list's filters (`{ assetId: 3 }`). */
  query: (values: V) => Query;
  /** The download's path when the values name it (`promoCode/export/{campaignId}`); else the spec's path. */
  path?: (values: V) => string;
}

interface DateRangeValues {
  startDate: string;
  endDate: string;
}

export const DATE_RANGE_MESSAGES = {
  startRequired: MESSAGES.startDateRequired,
  endRequired: MESSAGES.endDateRequired,
  endBeforeStart: MESSAGES.endBeforeStart,
} as const;

const dateRangeFields: FieldDef<DateRangeValues>[] = [
  { name: 'startDate', label: 'export.startDate', kind: 'date' },
  { name: 'endDate', label: 'export.endDate', kind: 'date' },
];

const dateRangeSchema: Schema<DateRangeValues> = {
  startDate: [required(DATE_RANGE_MESSAGES.startRequired)],
  endDate: [
    required(DATE_RANGE_MESSAGES.endRequired),
    // yyyy-MM-dd strings order like the days they name.
    (end, values) => (values.startDate && String(end) < values.startDate ? DATE_RANGE_MESSAGES.endBeforeStart : undefined),
  ],
};

const dateRangeForm = ({ startParam, endParam }: { startParam: string; endParam: string }): ExportForm<DateRangeValues> => ({
  fields: dateRangeFields,
  schema: dateRangeSchema,
  initialValues: () => ({ startDate: '', endDate: '' }),
  query: (range) => ({ [startParam]: localDayStart(range.startDate), [endParam]: localDayEnd(range.endDate) }),
});

/**
 * The list's filters with the dialog's values on top. Query names are case-insensitive on the
 * server, so a list filter the dialog also sets (StartDate under startDate) goes: the dialog's wins.
 */
export function withParams(filters: Query, values: Query): Query {
  const taken = new Set(Object.keys(values).map((name) => name.toLowerCase()));
  return { ...Object.fromEntries(Object.entries(filters).filter(([name]) => !taken.has(name.toLowerCase()))), ...values };
}

function formatBytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${formatNumber(Math.round(bytes / 1024))} KB` : `${formatNumber(bytes / 1024 / 1024, { fractionDigits: 1 })} MB`;
}

/** Downloads with real progress and saves the file; a failure is thrown to the caller. */
function useDownload(fileName: string) {
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const run = async (path: string, query: Query): Promise<string> => {
    setProgress({ phase: 'waiting', received: 0, total: null });
    try {
      const file = await downloadFile(path, query, setProgress);
      const savedAs = file.fileName ?? fileName;
      saveBlob(file.blob, savedAs);
      return savedAs;
    } finally {
      setProgress(null);
    }
  };
  return { progress, run };
}

function ProgressBar({ progress }: { progress: DownloadProgress }) {
  useSignals();
  const percent = progress.phase === 'receiving' && progress.total ? Math.min(100, Math.round((progress.received / progress.total) * 100)) : null;
  const text =
    progress.phase === 'waiting'
      ? t('export.waiting')
      : percent === null
        ? t('export.progressUnknown', { size: formatBytes(progress.received) })
        : t('export.progress', { percent });
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
        <div className={`h-full bg-accent ${percent === null ? 'w-1/3 animate-pulse' : ''}`} style={percent === null ? undefined : { width: `${percent}%` }} />
      </div>
      <span className="text-xs text-slate-600">{text}</span>
    </div>
  );
}

/** The toolbar's Export: a direct download, or a date-range form first; both show real progress. */
export function ExportControl({
  spec,
  basePath,
  filterQuery,
  onExported,
}: {
  spec: ExportSpec;
  basePath: string;
  filterQuery: Query;
  /** After the file was saved, with its name. */
  onExported?: (fileName: string) => void;
}) {
  useSignals();
  const download = useDownload(spec.fileName);
  const [error, setError] = useState<string | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const path = spec.path ?? `${basePath}/export`;
  const busy = download.progress !== null;

  const exportButton = (onClick: () => void) => (
    <Button onClick={onClick} busy={busy}>
      <Icon name="download" className="size-4" />
      {t('button.export')}
    </Button>
  );

  if (!spec.dateRange && !spec.form) {
    const start = async () => {
      setError(null);
      try {
        // Run first: `onExported?.(await ...)` would skip the download when no one listens.
        const savedAs = await download.run(path, filterQuery);
        onExported?.(savedAs);
      } catch (failure) {
        setError(errorMessage(failure));
      }
    };
    return (
      <div className="flex items-center gap-3">
        {exportButton(() => void start())}
        {download.progress && <ProgressBar progress={download.progress} />}
        {error && <Alert tone="danger">{error}</Alert>}
      </div>
    );
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see ExportSpec.form
  const form: ExportForm<any> = spec.form ?? dateRangeForm(spec.dateRange!);
  return (
    <>
      {exportButton(() => setDialogOpen(true))}
      <FormDialog
        open={dialogOpen}
        // The download keeps going in the background if the dialog is closed; the file is still saved.
        onClose={() => setDialogOpen(false)}
        title={t('export.title')}
        size="sm"
        fields={form.fields}
        schema={form.schema}
        initialValues={form.initialValues()}
        submitLabel={t('button.download')}
        submit={async (values) => {
          const savedAs = await download.run(form.path?.(values) ?? path, withParams(filterQuery, form.query(values)));
          onExported?.(savedAs);
        }}
      >
        {download.progress && <ProgressBar progress={download.progress} />}
      </FormDialog>
    </>
  );
}
