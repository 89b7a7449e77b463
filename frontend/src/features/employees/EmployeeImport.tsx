import { useSignals } from '@preact/signals-react/runtime';
import { useId, useState } from 'react';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { Dialog, DialogActions } from '../../components/Dialog';
import { Icon } from '../../components/icons';
import { dialogAction } from '../../components/resource/dialogAction';
import type { ToolbarAction } from '../../components/resource/types';
import { errorMessage, request } from '../../lib/api';
import { downloadFile, saveBlob } from '../../lib/download';
import type { Schema } from '../../lib/contract';
import { formatNumber, t } from '../../lib/i18n';

/** What `POST employee/import` answers: the dry run's or the apply's counts and refused rows. */
export type ImportReport = Schema<'ImportReport'>;

const TEMPLATE = 'EmployeeImport.xlsx';

function send(file: File, dryRun: boolean): Promise<ImportReport> {
  const form = new FormData();
  form.append('file', file, file.name);
  return request<ImportReport>('employee/import', { method: 'POST', body: form, query: { dryRun } });
}

/**
 * Import employees from HR's .xlsx (issue 15): the template downloads here;
 * a chosen file is checked first (a dry run: rows to add, to update, and each
 * refused row with its number and reason), then imported in one transaction
 * with a progress bar; refused rows are left out.
 */
function ImportDialog({ onClose, onDone }: { onClose: () => void; onDone: (confirmation?: string) => void }) {
  useSignals();
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [busy, setBusy] = useState<'check' | 'import' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = async (dryRun: boolean) => {
    if (!file) {
      setError(t('import.fileRequired'));
      return;
    }
    setBusy(dryRun ? 'check' : 'import');
    setError(null);
    try {
      const answer = await send(file, dryRun);
      if (dryRun) {
        setReport(answer);
      } else {
        onClose();
        onDone(t('import.done', { added: answer.added, updated: answer.updated, refused: answer.refused.length }));
      }
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(null);
    }
  };
  const template = async () => {
    try {
      const downloaded = await downloadFile('employee/import/template', {});
      saveBlob(downloaded.blob, downloaded.fileName ?? TEMPLATE);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  return (
    <Dialog open onClose={onClose} title={t('import.title')} size="lg">
      <p className="text-sm text-slate-700">{t('import.columns')}</p>
      <Button variant="ghost" className="mt-2" onClick={template}>
        <Icon name="download" className="size-4" />
        {t('import.template')}
      </Button>
      <label htmlFor={fileId} className="mt-4 block text-sm font-medium text-slate-900">
        {t('import.file')}
      </label>
      <input
        id={fileId}
        type="file"
        accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        onChange={(event) => {
          setFile(event.currentTarget.files?.[0] ?? null);
          setReport(null);
          setError(null);
        }}
        className="mt-1 block w-full text-sm text-slate-900 file:mr-3 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium"
      />
      {error && (
        <div className="mt-3">
          <Alert tone="danger">{error}</Alert>
        </div>
      )}
      {busy === 'import' && (
        <div role="progressbar" aria-label={t('import.importing')} className="mt-4 h-2 overflow-hidden rounded-full bg-slate-200">
          <div className="h-full w-1/3 animate-pulse bg-accent" />
        </div>
      )}
      {report && (
        <section aria-label={t('import.dryRun')} className="mt-4">
          <Alert tone={report.refused.length ? 'info' : 'success'}>
            {t('import.summary', {
              rows: formatNumber(report.rows),
              added: formatNumber(report.added),
              updated: formatNumber(report.updated),
              refused: formatNumber(report.refused.length),
            })}
          </Alert>
          {report.refused.length > 0 && (
            <div className="mt-3 max-h-64 overflow-auto rounded-lg border border-slate-200" tabIndex={0} aria-label={t('import.refusedRows')}>
              <table className="w-full text-left text-sm">
                <caption className="sr-only">{t('import.refusedRows')}</caption>
                <thead className="bg-slate-50 text-slate-700">
                  <tr>
                    <th scope="col" className="px-3 py-2 font-medium">{t('import.row')}</th>
                    <th scope="col" className="px-3 py-2 font-medium">{t('import.column')}</th>
                    <th scope="col" className="px-3 py-2 font-medium">{t('import.reason')}</th>
                  </tr>
                </thead>
                <tbody>
                  {report.refused.map((refused) => (
                    <tr key={refused.row} className="border-t border-slate-100">
                      <td className="px-3 py-1.5 tabular-nums">{refused.row}</td>
                      <td className="px-3 py-1.5">{refused.field}</td>
                      <td className="px-3 py-1.5">{refused.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      )}
      <DialogActions>
        <Button onClick={onClose}>{t('button.cancel')}</Button>
        {report && report.added + report.updated > 0 ? (
          <Button variant="primary" busy={busy === 'import'} onClick={() => run(false)}>
            {t('import.apply', { count: report.added + report.updated })}
          </Button>
        ) : (
          <Button variant="primary" busy={busy === 'check'} onClick={() => run(true)}>
            {t('import.check')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

export const importAction: ToolbarAction = dialogAction({
  id: 'import',
  label: 'import.button',
  icon: 'plus',
  editorsOnly: true,
  dialog: ({ onClose, onDone }) => <ImportDialog onClose={onClose} onDone={onDone} />,
});
